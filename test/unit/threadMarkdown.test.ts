// A finding's thread shows its markdown without images: nothing is fetched when it is drawn.

import MarkdownIt from 'markdown-it';
import { threadBody } from '../../extension/src/findings/threadMarkdown';

const images = (markdown: string) =>
  new MarkdownIt({ html: false })
    .parse(markdown, {})
    .flatMap((block) => block.children ?? [])
    .filter((token) => token.type === 'image').length;

describe("a finding's thread body", () => {
  it('is the markdown itself when there is no image', () => {
    const markdown =
      '**major** `src/a.ts:3` retries forever: see [the caller](src/b.ts:9).\n\n```rust\nlet v = vec![1, 2];\n```';
    expect(threadBody(markdown)).toEqual({ markdown });
  });

  it('shows no image, whatever its form', () => {
    const hostile = [
      '![pixel](https://tracker.example/p.gif) src/a.ts:3 leaks',
      'src/a.ts:3 [![badge](https://img.example/b.svg)](https://example.com)',
      'src/a.ts:3 ![ref][p]\n\n[p]: https://tracker.example/r.gif',
      'src/a.ts:3 ![a](<https://tracker.example/a b.gif> "t")',
      'src/a.ts:3 \\![not an image](x) but ![this is](https://tracker.example/y.gif)',
    ];
    for (const markdown of hostile) {
      const body = threadBody(markdown);
      const shown = 'markdown' in body ? body.markdown : undefined;
      if (shown !== undefined) expect(images(shown)).toBe(0);
      // The text is still there to read.
      expect('markdown' in body ? body.markdown : body.text).toContain('src/a.ts:3');
    }
  });
});
