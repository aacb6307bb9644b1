// Code blocks are highlighted in the panel, near the screen, after the page is shown: the page
// arrives with the code unhighlighted, only blocks that come near the screen are highlighted, a
// few per task, and once they are the page is the one the renderer wrote when it highlighted
// in the render (the same classes and spans, so the same colours from review.css).

import core from 'highlight.js/lib/core';
import MarkdownIt from 'markdown-it';
import { renderReview } from '../../extension/src/render/markdownRenderer';
import { MAX_HIGHLIGHTED_BLOCK } from '../../extension/src/render/codeHighlight';
import { highlightCode, registeredLanguages } from '../../shared/codeGrammars';
import { canHighlight, HIGHLIGHTED_LANGUAGES } from '../../shared/codeLanguages';
import {
  BLOCKS_PER_TASK,
  CodeHighlighting,
  HIGHLIGHT_SELECTOR,
  type HighlightScheduling,
  type NearScreenObserver,
} from '../../extension/webview/codeHighlighting';
import { HighlightCache } from '../../extension/webview/highlightCache';
import { ParsedPage, type PageElement } from './parsedPage';

const { escapeHtml } = new MarkdownIt().utils;

/** highlight.js as the renderer used it when it highlighted in the render: its core and these grammars. */
const hljs = core.newInstance();
const GRAMMARS = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'css',
  'diff',
  'go',
  'java',
  'javascript',
  'json',
  'kotlin',
  'markdown',
  'php',
  'python',
  'ruby',
  'rust',
  'scss',
  'shell',
  'sql',
  'swift',
  'typescript',
  'xml',
  'yaml',
];
beforeAll(async () => {
  for (const name of GRAMMARS) {
    hljs.registerLanguage(name, (await import(`highlight.js/lib/languages/${name}`)).default);
  }
});

/** Everything is a file that does not exist: references do not matter here. */
const resolver = { resolve: () => ({ status: 'broken' as const, reason: 'none' }) };
const htmlOf = async (markdown: string) => (await renderReview(markdown, resolver)).html;

interface Block {
  readonly info: string;
  readonly code: string;
  /** How the renderer wrote the block before highlighting moved to the panel. */
  readonly was: 'highlighted' | 'plain' | 'mermaid';
}

const BLOCKS: Block[] = [
  {
    info: 'ts',
    code: 'export function taxFor(amount: number): number {\n  return Math.round(amount * 100) / 100; // src/a.ts:3\n}\n',
    was: 'highlighted',
  },
  { info: 'python', code: 'def f(x):\n    """Doc."""\n    return x ** 2  # comment\n', was: 'highlighted' },
  { info: 'Go', code: 'package main\n\nfunc main() { fmt.Println("hi") }\n', was: 'highlighted' },
  { info: 'json', code: '{"a": [1, 2.5, true, null], "b": "c"}\n', was: 'highlighted' },
  { info: 'sh title="setup"', code: 'export A="$HOME/x" && echo \'done\' | grep -v x > out\n', was: 'highlighted' },
  {
    info: 'html',
    code: '<script>alert("x" && \'y\')</script><img src=x onerror=alert(1)>&amp; &lt;\n',
    was: 'highlighted',
  },
  { info: 'diff', code: '--- a\n+++ b\n@@ -1 +1 @@\n-old <b>\n+new & "quoted"\n', was: 'highlighted' },
  { info: 'rust', code: 'fn main() { let s = "<script>&\\"\'"; println!("{}", s); }\n', was: 'highlighted' },
  { info: 'nosuchlang', code: '<script>&"\'</script>\n', was: 'plain' },
  { info: 'js', code: 'let x = 1;\n'.repeat(MAX_HIGHLIGHTED_BLOCK / 11 + 1), was: 'plain' },
  { info: '', code: 'no language <script>&"\'\n', was: 'plain' },
  { info: 'suggestion', code: 'outside any finding\n', was: 'plain' },
  { info: 'mermaid', code: 'graph TD\n  A["<b>&"] --> B\n', was: 'mermaid' },
];

function reviewOf(blocks: readonly Block[]): { markdown: string; expected: string } {
  let line = 0;
  const markdown: string[] = [];
  const expected: string[] = [];
  for (const { info, code, was } of blocks) {
    markdown.push('```' + info + '\n' + code + '```\n');
    const language = info.split(' ')[0];
    const classes = was === 'highlighted' ? `hljs language-${language}` : `language-${language}`;
    const body =
      was === 'highlighted'
        ? hljs.highlight(code, { language: language.toLowerCase(), ignoreIllegals: true }).value
        : escapeHtml(code);
    const pre = was === 'mermaid' ? `<pre class="redline-mermaid" data-line="${line}">` : `<pre data-line="${line}">`;
    expected.push(`${pre}<code${language ? ` class="${classes}"` : ''}>${body}</code></pre>\n`);
    line += code.split('\n').length + 2;
  }
  return { markdown: markdown.join('\n'), expected: expected.join('') };
}

/** An IntersectionObserver that reports what the test says is near the screen. */
class FakeObserver implements NearScreenObserver {
  readonly watched = new Set<PageElement>();
  constructor(private readonly onNear: (blocks: Element[]) => void) {}
  observe(target: Element): void {
    this.watched.add(target as unknown as PageElement);
  }
  unobserve(target: Element): void {
    this.watched.delete(target as unknown as PageElement);
  }
  disconnect(): void {
    this.watched.clear();
  }
  /** The screen moved: these blocks came near it. */
  near(blocks: PageElement[]): void {
    const watched = blocks.filter((block) => this.watched.has(block));
    if (watched.length > 0) this.onNear(watched as unknown as Element[]);
  }
}

/** The panel's code highlighting on a parsed page, with the observer and the tasks in the test's hands. */
function panelOf(
  html: string,
  options: { cache?: HighlightCache; clock?: () => number; load?: () => Promise<typeof highlightCode> } = {},
) {
  const page = new ParsedPage(html);
  const tasks: Array<() => void> = [];
  let observer!: FakeObserver;
  const scheduling: HighlightScheduling = {
    observer: (onNear) => (observer = new FakeObserver(onNear)),
    later: (task) => tasks.push(task),
    now: options.clock ?? (() => 0),
  };
  const highlighting = new CodeHighlighting({
    root: page as unknown as ParentNode,
    load: options.load ?? (() => Promise.resolve(highlightCode)),
    scheduling,
    cache: options.cache,
  });
  /** Runs the next task, once the highlighter has loaded. */
  const runTask = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    tasks.shift()?.();
  };
  const runAll = async () => {
    do await runTask();
    while (tasks.length > 0);
  };
  const highlighted = () => page.byTag('code').filter((code) => code.className.split(' ').includes('hljs'));
  return { page, highlighting, observer, tasks, runTask, runAll, highlighted };
}

describe('code highlighting in the panel', () => {
  it('ends with the page the renderer wrote when it highlighted in the render', async () => {
    const { markdown, expected } = reviewOf(BLOCKS);
    const html = await htmlOf(markdown);
    // What is posted: the code unhighlighted, the blocks to highlight marked.
    expect(html).not.toContain('hljs');
    expect(html.match(/data-highlight=/g)).toHaveLength(BLOCKS.filter((block) => block.was === 'highlighted').length);
    expect(expected).toContain('<span class="hljs-keyword">');
    const panel = panelOf(html);
    panel.highlighting.update();
    panel.observer.near([...panel.observer.watched]);
    await panel.runAll();
    expect(panel.page.html).toBe(new ParsedPage(expected).html);
    expect(panel.page.querySelectorAll(HIGHLIGHT_SELECTOR)).toHaveLength(0);
  });

  it('highlights only the blocks that come near the screen, and leaves the first paint alone', async () => {
    const { markdown } = reviewOf(
      Array.from({ length: 6 }, (_, i) => ({ info: 'ts', code: `const a${i} = ${i};\n`, was: 'highlighted' as const })),
    );
    const panel = panelOf(await htmlOf(markdown));
    panel.highlighting.update();
    const blocks = panel.page.querySelectorAll(HIGHLIGHT_SELECTOR);
    expect(panel.observer.watched).toEqual(new Set(blocks));
    // Nothing is highlighted while the page is added, nor until a block is near the screen.
    expect(panel.highlighted()).toHaveLength(0);
    expect(panel.tasks).toHaveLength(0);
    panel.observer.near([blocks[0], blocks[1]]);
    expect(panel.highlighted()).toHaveLength(0);
    await panel.runAll();
    expect(panel.highlighted().map((code) => code.textContent)).toEqual(['const a0 = 0;\n', 'const a1 = 1;\n']);
    expect(panel.observer.watched).toEqual(new Set(blocks.slice(2)));
    panel.observer.near([blocks[5]]);
    await panel.runAll();
    expect(panel.highlighted().map((code) => code.textContent)).toEqual([
      'const a0 = 0;\n',
      'const a1 = 1;\n',
      'const a5 = 5;\n',
    ]);
  });

  it('highlights a few blocks per task, and fewer when they take long', async () => {
    const { markdown } = reviewOf(
      Array.from({ length: 10 }, (_, i) => ({ info: 'ts', code: `let b${i};\n`, was: 'highlighted' as const })),
    );
    const html = await htmlOf(markdown);
    const quick = panelOf(html);
    quick.highlighting.update();
    quick.observer.near(quick.page.querySelectorAll(HIGHLIGHT_SELECTOR));
    await quick.runTask();
    expect(quick.highlighted()).toHaveLength(BLOCKS_PER_TASK);
    await quick.runAll();
    expect(quick.highlighted()).toHaveLength(10);
    // A clock on which every block takes 10 ms: one block per task.
    let time = 0;
    const slow = panelOf(html, { clock: () => (time += 10) });
    slow.highlighting.update();
    slow.observer.near(slow.page.querySelectorAll(HIGHLIGHT_SELECTOR));
    await slow.runTask();
    expect(slow.highlighted()).toHaveLength(1);
    expect(slow.tasks).toHaveLength(1);
  });

  it('watches each block once, and the blocks an append brings', async () => {
    const panel = panelOf(await htmlOf('```ts\nlet a;\n```\n'));
    panel.highlighting.update();
    panel.highlighting.update();
    expect(panel.observer.watched.size).toBe(1);
    panel.page.append(await htmlOf('```py\nb = 1\n```\n'));
    panel.highlighting.update();
    expect([...panel.observer.watched].map((code) => code.textContent)).toEqual(['let a;\n', 'b = 1\n']);
  });

  it("watches a long page's slice as one, and its blocks only once the slice nears the screen", async () => {
    const { markdown } = reviewOf(
      Array.from({ length: 3 }, (_, i) => ({ info: 'ts', code: `let s${i};\n`, was: 'highlighted' as const })),
    );
    const panel = panelOf(await htmlOf(markdown));
    // The parsed page stands for one slice of a long page.
    const slice = panel.page as unknown as Element & PageElement;
    panel.highlighting.watch(slice);
    expect([...panel.observer.watched]).toEqual([slice]);
    panel.observer.near([slice]);
    const blocks = panel.page.querySelectorAll(HIGHLIGHT_SELECTOR);
    expect(panel.observer.watched).toEqual(new Set(blocks));
    panel.observer.near([blocks[2]]);
    await panel.runAll();
    expect(panel.highlighted().map((code) => code.textContent)).toEqual(['let s2;\n']);
  });

  it("watches a slice's groups once it nears the screen, and highlights a group's blocks once the group does", async () => {
    // A long page's groups that the browser has not laid out report none of their blocks near,
    // so the groups are what is watched: each keeps an estimated height.
    const block = (code: string) => `<pre><code class="language-ts" data-highlight="ts">${code}</code></pre>`;
    const group = (i: number) => `<div class="redline-group">${block(`let g${i};\n`)}${block(`let h${i};\n`)}</div>`;
    const panel = panelOf(`<div class="redline-slice">${group(0)}${group(1)}</div>`);
    const slice = panel.page.querySelectorAll('.redline-slice')[0];
    panel.highlighting.watch(slice as unknown as Element);
    panel.observer.near([slice]);
    const groups = panel.page.querySelectorAll('.redline-group');
    expect(panel.observer.watched).toEqual(new Set(groups));
    panel.observer.near([groups[1]]);
    await panel.runAll();
    expect(panel.highlighted().map((code) => code.textContent)).toEqual(['let g1;\n', 'let h1;\n']);
    expect(panel.observer.watched).toEqual(new Set([groups[0]]));
  });

  it('drops what was queued for a page that another replaced', async () => {
    const panel = panelOf(await htmlOf('```ts\nlet a;\n```\n\n```ts\nlet b;\n```\n'));
    panel.highlighting.update();
    const old = panel.page.querySelectorAll(HIGHLIGHT_SELECTOR);
    panel.observer.near(old);
    panel.highlighting.reset();
    panel.page.clear();
    panel.page.append(await htmlOf('```ts\nlet c;\n```\n'));
    panel.highlighting.update();
    await panel.runAll();
    expect(old.some((code) => code.className.includes('hljs'))).toBe(false);
    expect([...panel.observer.watched].map((code) => code.textContent)).toEqual(['let c;\n']);
  });

  it('shows a block already highlighted from the cache', async () => {
    const cache = new HighlightCache();
    cache.set('ts', 'let cached;\n', '<span class="hljs-keyword">from the cache</span>');
    const panel = panelOf(await htmlOf('```ts\nlet cached;\n```\n\n```ts\nlet fresh;\n```\n'), { cache });
    panel.highlighting.update();
    panel.observer.near(panel.page.querySelectorAll(HIGHLIGHT_SELECTOR));
    await panel.runAll();
    const [cached, fresh] = panel.page.byTag('code');
    expect(cached.outerHTML).toBe(
      '<code class="hljs language-ts"><span class="hljs-keyword">from the cache</span></code>',
    );
    expect(fresh.outerHTML).toBe(
      `<code class="hljs language-ts">${hljs.highlight('let fresh;\n', { language: 'ts' }).value}</code>`,
    );
    expect(cache.get('ts', 'let fresh;\n')).toBe(hljs.highlight('let fresh;\n', { language: 'ts' }).value);
  });
});

describe('the highlighter', () => {
  it('is loaded once, when a block first nears the screen, not with the page', async () => {
    let loads = 0;
    const load = () => {
      loads++;
      return Promise.resolve(highlightCode);
    };
    const panel = panelOf(await htmlOf('```ts\nlet a;\n```\n\n```ts\nlet b;\n```\n'), { load });
    panel.highlighting.update();
    await panel.runAll();
    expect(loads).toBe(0);
    const [first, second] = panel.page.querySelectorAll(HIGHLIGHT_SELECTOR);
    panel.observer.near([first]);
    await panel.runAll();
    panel.observer.near([second]);
    await panel.runAll();
    expect(loads).toBe(1);
    expect(panel.highlighted()).toHaveLength(2);
  });

  it('leaves the code plain, and stops watching, when it cannot be loaded', async () => {
    const panel = panelOf(await htmlOf('```ts\nlet a;\n```\n'), {
      load: () => Promise.reject(new Error('the highlighter could not be loaded')),
    });
    panel.highlighting.update();
    panel.observer.near(panel.page.querySelectorAll(HIGHLIGHT_SELECTOR));
    await panel.runAll();
    expect(panel.highlighted()).toHaveLength(0);
    expect(panel.page.byTag('code')[0].outerHTML).toBe('<code class="language-ts" data-highlight="ts">let a;\n</code>');
    expect(panel.observer.watched.size).toBe(0);
    panel.page.append(await htmlOf('```py\nb = 1\n```\n'));
    panel.highlighting.update();
    expect(panel.observer.watched.size).toBe(0);
  });

  it('has a grammar for every language the render marks, and no other', () => {
    const sorted = (table: Readonly<Record<string, readonly string[]>>) =>
      Object.fromEntries(Object.entries(table).map(([name, aliases]) => [name, [...aliases].sort()]));
    expect(sorted(registeredLanguages())).toEqual(sorted(HIGHLIGHTED_LANGUAGES));
    expect(['ts', 'TypeScript', 'C++', 'sh', 'HTML'].map(canHighlight)).toEqual([true, true, true, true, true]);
    expect(
      ['mermaid', 'suggestion', 'nosuchlang', '', 'constructor', '__proto__', 'toString'].map(canHighlight),
    ).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('HighlightCache', () => {
  it('keeps at most its limit of characters, dropping the least recently used first', () => {
    const cache = new HighlightCache(100);
    cache.set('ts', 'a'.repeat(20), 'A'.repeat(20));
    cache.set('ts', 'b'.repeat(20), 'B'.repeat(20));
    expect(cache.get('ts', 'a'.repeat(20))).toBe('A'.repeat(20));
    cache.set('ts', 'c'.repeat(20), 'C'.repeat(20));
    expect(cache.characters).toBeLessThanOrEqual(100);
    expect(cache.get('ts', 'b'.repeat(20))).toBeUndefined();
    expect(cache.get('ts', 'a'.repeat(20))).toBe('A'.repeat(20));
    expect(cache.get('ts', 'c'.repeat(20))).toBe('C'.repeat(20));
  });

  it('keys by language and text, and does not keep a block larger than its limit', () => {
    const cache = new HighlightCache(100);
    cache.set('ts', 'x', 'TS');
    cache.set('js', 'x', 'JS');
    expect([cache.get('ts', 'x'), cache.get('js', 'x')]).toEqual(['TS', 'JS']);
    cache.set('ts', 'y'.repeat(80), 'Y'.repeat(80));
    expect(cache.get('ts', 'y'.repeat(80))).toBeUndefined();
    expect(cache.characters).toBe(12);
  });
});
