// highlight.js with the grammars of the languages Redline highlights (shared/codeLanguages.ts),
// for the panel: built on its own as dist/highlighter.js (scripts/build.mjs), which the panel loads
// the first time a block needs highlighting, so a review's first screen never waits on it.
// highlight.js writes class names only, which the panel's CSP allows where inline colours are
// refused; review.css colours them.

import hljs from 'highlight.js/lib/core';
import { canHighlight } from './codeLanguages';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const GRAMMARS = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  scss,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

/** The languages and aliases registered here, for the test that holds codeLanguages.ts to them. */
export function registeredLanguages(): Record<string, string[]> {
  return Object.fromEntries(hljs.listLanguages().map((name) => [name, hljs.getLanguage(name)?.aliases ?? []]));
}

/** Highlights a block: its HTML (its text escaped, in class-only spans), or undefined to leave it plain. */
export type HighlightCode = (code: string, language: string) => string | undefined;

/** The language is a grammar's name or alias, in lower case (the render's `data-highlight`). */
export const highlightCode: HighlightCode = (code, language) => {
  if (!canHighlight(language)) return undefined;
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
};
