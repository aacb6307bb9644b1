// A finding's markdown as its comment thread shows it: without images, as the panel shows it.
// VS Code's Comments UI renders markdown images, and a remote one is fetched as soon as the
// thread is drawn (a tracking pixel, or a request to any host the review names).

import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false });

export type ThreadBody = { readonly markdown: string } | { readonly text: string };

function hasImage(markdown: string): boolean {
  return md.parse(markdown, {}).some((block) => block.children?.some((token) => token.type === 'image'));
}

/**
 * The markdown unchanged when it has no image (nearly always). Otherwise every `![` is escaped,
 * so an image shows as its source text; and if markdown still finds an image in that (no known
 * case), the whole body is shown as plain text.
 */
export function threadBody(markdown: string): ThreadBody {
  if (!hasImage(markdown)) return { markdown };
  const escaped = markdown.replace(/!\[/g, '!\\[');
  return hasImage(escaped) ? { text: markdown } : { markdown: escaped };
}
