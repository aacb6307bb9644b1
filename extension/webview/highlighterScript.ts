// The highlighter, highlight.js with its grammars (shared/codeGrammars.ts), is a script of its own
// (dist/highlighter.js), loaded the first time a block nears the screen: the panel's own script
// stays small, and a review's first screen never waits for it. It is loaded with the page's nonce,
// as the diagram renderer is (mermaidDiagrams.ts), so the CSP stays as it is.

import type { HighlightCode } from '../../shared/codeGrammars';

/** The global the bundle defines (esbuild's `globalName` in scripts/build.mjs). */
const HIGHLIGHTER_GLOBAL = 'redlineHighlighter';

/** Loads the highlighter's bundle from `src`; rejects when there is none or it does not start. */
export function loadHighlighter(src: string | undefined, nonce: string): Promise<HighlightCode> {
  return new Promise<HighlightCode>((resolve, reject) => {
    if (!src) {
      reject(new Error('the highlighter is not available'));
      return;
    }
    const script = document.createElement('script');
    script.nonce = nonce;
    script.src = src;
    script.addEventListener('load', () => {
      const highlighter = (globalThis as Record<string, unknown>)[HIGHLIGHTER_GLOBAL] as
        { highlightCode?: unknown } | undefined;
      if (typeof highlighter?.highlightCode === 'function') resolve(highlighter.highlightCode as HighlightCode);
      else reject(new Error('the highlighter did not start'));
    });
    script.addEventListener('error', () => reject(new Error('the highlighter could not be loaded')));
    document.head.append(script);
  });
}
