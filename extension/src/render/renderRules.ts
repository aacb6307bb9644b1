// How the parsed review is written as HTML where markdown-it's own rules would not do: links (only
// `href="#"`, with what they point at in data attributes the panel posts back), images (their alt
// text, never a request) and fences (`data-line` on the <pre>, and a grammar for the panel's highlighter).

import MarkdownIt from 'markdown-it';
import { formatReference } from '../../../shared/links';
import { linkMeta, RENDER_STATE, type RenderState } from './parseSteps';
import type { ReferenceMeta } from './referenceAnswers';
import { renderSuggestion } from './suggestions';

type Token = MarkdownIt.Token;
type RendererOptions = MarkdownIt.Options;

const { escapeHtml, unescapeAll } = new MarkdownIt().utils;

export function installRenderRules(md: MarkdownIt): void {
  md.renderer.rules.link_open = renderLinkOpen;
  md.renderer.rules.link_close = (tokens, idx) => (linkMeta(tokens[idx]).kind === 'plain' ? '' : '</a>');
  md.renderer.rules.image = renderImage;
  md.renderer.rules.fence = renderFence;
}

function referenceTitle(meta: ReferenceMeta): { title: string; className: string } {
  const resolution = meta.resolution ?? { status: 'unchecked', reason: 'not checked' };
  switch (resolution.status) {
    case 'broken':
      return { title: resolution.reason, className: 'redline-ref redline-broken' };
    case 'unchecked':
      return { title: `Open ${formatReference(meta.reference)} (${resolution.reason})`, className: 'redline-ref' };
    case 'resolved': {
      const clamped = resolution.clamped ? ` (the file ends at line ${resolution.lineCount})` : '';
      return { title: `Open ${formatReference(meta.reference)}${clamped}`, className: 'redline-ref' };
    }
  }
}

function renderLinkOpen(tokens: Token[], idx: number): string {
  const meta = linkMeta(tokens[idx]);
  switch (meta.kind) {
    case 'reference': {
      const { title, className } = referenceTitle(meta);
      return `<a class="${className}" href="#" data-ref="${escapeHtml(meta.raw)}" title="${escapeHtml(title)}">`;
    }
    case 'external':
      return `<a class="redline-external" href="#" data-external="${escapeHtml(meta.url)}" title="${escapeHtml(meta.url)}">`;
    case 'plain':
      return '';
  }
}

/** Images would be network requests or local file reads; the panel promises neither, so show the alt text. */
// eslint-disable-next-line @typescript-eslint/max-params -- markdown-it's RenderRule signature
function renderImage(
  tokens: Token[],
  idx: number,
  options: RendererOptions,
  env: unknown,
  self: MarkdownIt.Renderer,
): string {
  const alt = self.renderInlineAsText(tokens[idx].children ?? [], options, env);
  return `<span class="redline-image">${escapeHtml(alt || 'image')}</span>`;
}

/**
 * `data-line` goes on the `<pre>` (the default rule puts attributes on `<code>`). A block in a
 * known language is written plain with `data-highlight`, its grammar: the panel highlights it when
 * it nears the screen (webview/codeHighlighting.ts), so the page is not held back by highlighting.
 */
// eslint-disable-next-line @typescript-eslint/max-params -- markdown-it's RenderRule signature
function renderFence(
  tokens: Token[],
  idx: number,
  _options: RendererOptions,
  env: unknown,
  self: MarkdownIt.Renderer,
): string {
  const token = tokens[idx];
  const suggestion = renderSuggestion(token, self.renderAttrs(token));
  if (suggestion !== undefined) return suggestion;
  const language = unescapeAll(token.info).trim().split(/\s+/)[0];
  // A diagram: drawn by the webview (webview/mermaidDiagrams.ts); until then, and if it cannot be, its source reads as code.
  if (language.toLowerCase() === 'mermaid') {
    return `<pre class="redline-mermaid"${self.renderAttrs(token)}><code class="language-mermaid">${escapeHtml(token.content)}</code></pre>\n`;
  }
  const grammar = language.toLowerCase();
  const highlight =
    language !== '' &&
    (env as Record<symbol, RenderState | undefined>)[RENDER_STATE]?.highlighter.admit(token.content, grammar) === true;
  const classAttribute = language ? ` class="language-${escapeHtml(language)}"` : '';
  const highlightAttribute = highlight ? ` data-highlight="${escapeHtml(grammar)}"` : '';
  return `<pre${self.renderAttrs(token)}><code${classAttribute}${highlightAttribute}>${escapeHtml(token.content)}</code></pre>\n`;
}
