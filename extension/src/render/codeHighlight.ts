// Code blocks highlighted in the extension host, as the review is rendered, so the panel gets
// finished HTML and runs no highlighter of its own. highlight.js because it fits the panel: it
// writes class names only (the CSP allows no inline style; Shiki writes inline colours and needs
// a regular-expression engine of several hundred KiB more), its grammars are plain functions that
// load with the bundle, and the common languages below add about 100 KiB to the extension bundle.
// Colours come from review.css, one palette per kind of theme (light, dark, high contrast).

import hljs from 'highlight.js/lib/core';
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

const GRAMMARS = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, kotlin, markdown, php, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);

/** A longer block is shown plain: highlighting is for reading, and reading stops well before this. */
export const MAX_HIGHLIGHTED_BLOCK = 64 * 1024;
/** Per render: a review of many large blocks is highlighted up to here, the rest shown plain. */
export const MAX_HIGHLIGHTED_PER_RENDER = 1024 * 1024;

/** One render's highlighting, with what is left of its budget. */
export class CodeHighlighter {
  private left = MAX_HIGHLIGHTED_PER_RENDER;

  /** The block's HTML (escaped text in class-only spans), or undefined to show it plain. */
  highlight(code: string, language: string): string | undefined {
    if (code.length > MAX_HIGHLIGHTED_BLOCK || code.length > this.left || !hljs.getLanguage(language)) return undefined;
    this.left -= code.length;
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      return undefined;
    }
  }
}
