// The languages Redline highlights: each grammar's name and the aliases a fence may use for it, as
// highlight.js registers them. The render asks here which blocks the panel is to highlight, without
// loading the grammars; the panel loads them (shared/codeGrammars.ts) only when a block needs them.
// A unit test checks that this list and the grammars agree.

export const HIGHLIGHTED_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  bash: ['sh', 'zsh'],
  c: ['h'],
  cpp: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'],
  csharp: ['cs', 'c#'],
  css: [],
  diff: ['patch'],
  go: ['golang'],
  java: ['jsp'],
  javascript: ['js', 'jsx', 'mjs', 'cjs'],
  json: ['jsonc', 'json5'],
  kotlin: ['kt', 'kts', 'ktm', 'ktx'],
  markdown: ['md', 'mkdown', 'mkd'],
  php: [],
  python: ['py', 'gyp', 'ipython'],
  ruby: ['rb', 'gemspec', 'podspec', 'thor', 'irb'],
  rust: ['rs'],
  scss: [],
  shell: ['console', 'shellsession'],
  sql: [],
  swift: [],
  typescript: ['ts', 'tsx', 'mts', 'cts'],
  xml: ['html', 'xhtml', 'rss', 'atom', 'xjb', 'xsd', 'xsl', 'plist', 'wsf', 'svg'],
  yaml: ['yml'],
};

const NAMES = new Set(Object.entries(HIGHLIGHTED_LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases]));

/** Whether a fence's language (its info string's first word, in any case) is one Redline highlights. */
export function canHighlight(language: string): boolean {
  return NAMES.has(language.toLowerCase());
}
