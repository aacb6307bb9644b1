// The panel's stylesheet draws emphasis in the theme's colours (issue 36): opacity faded a closed
// finding's links and badges below 4.5:1, and a colour of our own does not follow a high-contrast
// theme. The UI suite's axe-core check measures the contrast itself; this keeps the rule visible
// to a change that would break it, without a browser.
import * as fs from 'fs';
import * as path from 'path';

const css = fs
  .readFileSync(path.join(__dirname, '../../extension/media/review.css'), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '');

/** Each rule's selector and declarations, in order. */
function rules(text: string): Array<{ selector: string; body: string }> {
  return [...text.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((match) => ({ selector: match[1].trim(), body: match[2] }));
}

describe('review.css', () => {
  it('fades nothing with opacity', () => {
    const faded = rules(css).filter(({ body }) => /(^|[;\s])opacity\s*:/.test(body));
    expect(faded.map(({ selector }) => selector)).toEqual([]);
  });

  it('takes every colour from the theme, except the code-token palette', () => {
    const ownColours = rules(css).filter(
      ({ selector, body }) =>
        !/^body(\.vscode-[\w-]+)?$/.test(selector) && /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i.test(body),
    );
    expect(ownColours.map(({ selector }) => selector)).toEqual([]);
  });

  it('has a palette entry for every token colour it uses', () => {
    const defined = new Set([...css.matchAll(/(--redline-code-[\w-]+)\s*:/g)].map((match) => match[1]));
    const used = new Set([...css.matchAll(/var\((--redline-code-[\w-]+)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });
});
