// What the panel shows for a review: references as links, broken ones marked and reported, and
// nothing an AI-written review can smuggle into the page (scripts, handlers, real hrefs, images).

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import MarkdownIt from 'markdown-it';
import type { FileReference } from '../../shared/links';
import { renderInSlices, SLICE_CHARS, SLICE_ELEMENTS } from '../../extension/src/render/pageSlices';
import { renderReview, type Resolver } from '../../extension/src/render/markdownRenderer';
import { ReferenceResolver, type Resolution } from '../../extension/src/render/referenceResolver';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { denseReview, writeFixtureFiles } from '../../bench/reviewFixtures';
import { MAX_HIGHLIGHTED_BLOCK, MAX_HIGHLIGHTED_PER_RENDER } from '../../extension/src/render/codeHighlight';

/** Files that exist, by path, with their line counts; everything else is missing. */
function fakeResolver(files: Record<string, number>): Resolver & { asked: FileReference[] } {
  const asked: FileReference[] = [];
  return {
    asked,
    resolve(ref: FileReference): Resolution {
      asked.push(ref);
      const lineCount = files[ref.path];
      if (lineCount === undefined) return { status: 'broken', reason: `no file ${ref.path} in /cwd` };
      if (ref.line !== undefined && ref.line > lineCount) {
        return { status: 'broken', reason: `line ${ref.line} is past the end of ${ref.path} (${lineCount} lines)` };
      }
      return { status: 'resolved', absolutePath: `/cwd/${ref.path}`, lineCount };
    },
  };
}

const files = fakeResolver({ 'src/a.ts': 100, 'package.json': 30, 'my file.ts': 10, Makefile: 5 });
const render = (markdown: string, lineOffset?: number) => renderReview(markdown, files, { lineOffset });
/** The HTML without the finding marks, which findings.test.ts covers. */
const htmlOf = async (markdown: string) => (await render(markdown)).html.replace(/ data-finding="f-[\w-]+"/g, '');

describe('references become links', () => {
  it('links a reference in prose, leaving trailing punctuation outside', async () => {
    expect(await htmlOf('Bug at src/a.ts:12.')).toBe(
      '<p data-line="0">Bug at <a class="redline-ref" href="#" data-ref="src/a.ts:12" title="Open src/a.ts:12">src/a.ts:12</a>.</p>\n',
    );
  });

  it('links a reference in parentheses', async () => {
    expect(await htmlOf('(see src/a.ts:10-20)')).toContain(
      '(see <a class="redline-ref" href="#" data-ref="src/a.ts:10-20" title="Open src/a.ts:10-20">src/a.ts:10-20</a>)',
    );
  });

  it('wraps inline code that is a reference with a line', async () => {
    expect(await htmlOf('Look at `src/a.ts#L3C2`')).toContain(
      '<a class="redline-ref" href="#" data-ref="src/a.ts#L3C2" title="Open src/a.ts:3:2"><code>src/a.ts#L3C2</code></a>',
    );
  });

  it('links path-only inline code only when the file exists, and counts only that one', async () => {
    const { html, references } = await render('`package.json` and `missing.json` and `obj.field`');
    expect(html).toContain(
      '<a class="redline-ref" href="#" data-ref="package.json" title="Open package.json"><code>package.json</code></a>',
    );
    expect(html).toContain(' and <code>missing.json</code> and <code>obj.field</code>');
    expect(references).toEqual({ total: 1, resolved: 1, unchecked: 0, broken: [] });
  });

  it('leaves inline code with spaces alone', async () => {
    expect(await htmlOf('run `npm test src/a.ts:3`')).toBe(
      '<p data-line="0">run <code>npm test src/a.ts:3</code></p>\n',
    );
  });

  it('sends markdown link destinations through the grammar, percent-encoding included', async () => {
    const html = await htmlOf('[the bug](src/a.ts#L12) and [spaced](<my file.ts:3>) and [tool](Makefile)');
    expect(html).toContain(
      '<a class="redline-ref" href="#" data-ref="src/a.ts#L12" title="Open src/a.ts:12">the bug</a>',
    );
    expect(html).toContain(
      '<a class="redline-ref" href="#" data-ref="my%20file.ts:3" title="Open my file.ts:3">spaced</a>',
    );
    expect(html).toContain('<a class="redline-ref" href="#" data-ref="Makefile" title="Open Makefile">tool</a>');
  });

  it('does not link a reference twice inside a link text', async () => {
    const html = await htmlOf('[src/a.ts:1 and `src/a.ts:2`](src/a.ts:3)');
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('data-ref="src/a.ts:3"');
  });

  it('never links inside code blocks; writes them unhighlighted, a known language marked for the panel to highlight', async () => {
    const html = await htmlOf(
      '```ts title="x"\nconst a = 1; // src/a.ts:3\n```\n\n    indented src/a.ts:4\n\n```nosuchlang\n<b>x</b>\n```\n\n```TSX\n<b/>\n```\n',
    );
    expect(html).toBe(
      '<pre data-line="0"><code class="language-ts" data-highlight="ts">const a = 1; // src/a.ts:3\n</code></pre>\n' +
        '<pre data-line="4"><code>indented src/a.ts:4\n</code></pre>\n' +
        '<pre data-line="6"><code class="language-nosuchlang">&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n' +
        '<pre data-line="10"><code class="language-TSX" data-highlight="tsx">&lt;b/&gt;\n</code></pre>\n',
    );
  });

  it('escapes the code, and leaves a block past the limits unmarked', async () => {
    const hostile = await htmlOf('```html\n<script>alert(1)</script><img src=x onerror=alert(2)>\n```\n');
    expect(hostile).not.toMatch(/<script|<img|style=/);
    expect(hostile).toBe(
      '<pre data-line="0"><code class="language-html" data-highlight="html">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\n</code></pre>\n',
    );
    const big = 'let x = 1;\n'.repeat(MAX_HIGHLIGHTED_BLOCK / 11 + 1);
    expect(await htmlOf(`\`\`\`js\n${big}\`\`\`\n`)).toMatch(
      /^<pre data-line="0"><code class="language-js">let x = 1;/,
    );
    // Per render: blocks are marked until MAX_HIGHLIGHTED_PER_RENDER characters of code, the rest left plain.
    const block = 'x'.repeat(MAX_HIGHLIGHTED_BLOCK - 1) + '\n';
    const many = await htmlOf(
      Array.from(
        { length: MAX_HIGHLIGHTED_PER_RENDER / MAX_HIGHLIGHTED_BLOCK + 2 },
        () => `\`\`\`py\n${block}\`\`\`\n`,
      ).join('\n'),
    );
    expect(many.match(/data-highlight="py"/g)).toHaveLength(MAX_HIGHLIGHTED_PER_RENDER / MAX_HIGHLIGHTED_BLOCK);
    expect(many).not.toContain('hljs');
  });

  it('marks a broken reference with the reason as its title', async () => {
    expect(await htmlOf('see src/a.ts:900')).toContain(
      '<a class="redline-ref redline-broken" href="#" data-ref="src/a.ts:900" title="line 900 is past the end of src/a.ts (100 lines)">src/a.ts:900</a>',
    );
  });

  it('renders http(s) links as external links that the host opens', async () => {
    const html = await htmlOf('[docs](https://example.com/a?b=1&c=2) and http://x.com/a.ts:12');
    expect(html).toContain(
      '<a class="redline-external" href="#" data-external="https://example.com/a?b=1&amp;c=2" title="https://example.com/a?b=1&amp;c=2">docs</a>',
    );
    expect(html).toContain(
      '<a class="redline-external" href="#" data-external="http://x.com/a.ts:12" title="http://x.com/a.ts:12">http://x.com/a.ts:12</a>',
    );
    expect(html).not.toContain('redline-ref');
  });

  it('shows other links as their text only', async () => {
    expect(await htmlOf('[mail](mailto:a@b.c), x@y.org, [anchor](#summary), ftp://host/f')).toBe(
      '<p data-line="0">mail, x@y.org, anchor, ftp://host/f</p>\n',
    );
  });

  it('shows images as their alt text and never loads them', async () => {
    expect(await htmlOf('![a *diagram*](https://example.com/x.png) ![](src/a.png)')).toBe(
      '<p data-line="0"><span class="redline-image">a diagram</span> <span class="redline-image">image</span></p>\n',
    );
  });

  it('puts the 0-based source line on blocks', async () => {
    const html = await htmlOf('# Title\n\ntext\n\n- one\n- two\n\n> quote\n\n---\n\n| a |\n| - |\n| b |\n');
    for (const tag of [
      '<h1 data-line="0">',
      '<p data-line="2">',
      '<ul data-line="4">',
      '<li data-line="5">',
      '<blockquote data-line="7">',
      '<hr data-line="9">',
      '<table data-line="11">',
    ]) {
      expect(html).toContain(tag);
    }
  });
});

describe('the reference report', () => {
  it('counts every occurrence and lists the broken ones with their 1-based line', async () => {
    const { references } = await render(
      '# src/a.ts:1\n\nok src/a.ts:2 and src/a.ts:2\nbad nope.ts:4\n\n- [x](src/a.ts:500)\n- `gone/b.ts:1`\n',
    );
    expect(references).toEqual({
      total: 6,
      resolved: 3,
      unchecked: 0,
      broken: [
        { reference: 'nope.ts:4', line: 4, reason: 'no file nope.ts in /cwd' },
        { reference: 'src/a.ts:500', line: 6, reason: 'line 500 is past the end of src/a.ts (100 lines)' },
        { reference: 'gone/b.ts:1', line: 7, reason: 'no file gone/b.ts in /cwd' },
      ],
    });
  });

  it('reports a link destination as written, not percent-encoded', async () => {
    expect((await render('[x](<no such.ts:3>)')).references.broken).toEqual([
      { reference: 'no such.ts:3', line: 1, reason: 'no file no such.ts in /cwd' },
    ]);
  });

  it('lists at most 200 broken references but keeps the counts exact', async () => {
    const markdown = Array.from({ length: 300 }, (_, i) => `- missing${i}.ts:1 and src/a.ts:${(i % 100) + 1}`).join(
      '\n',
    );
    const { references } = await render(markdown);
    expect(references.total).toBe(600);
    expect(references.resolved).toBe(300);
    expect(references.broken).toHaveLength(200);
    expect(references.broken[199]).toEqual({
      reference: 'missing199.ts:1',
      line: 200,
      reason: 'no file missing199.ts in /cwd',
    });
  });

  it('works with the real resolver', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-render-'));
    try {
      fs.mkdirSync(path.join(root, 'src'));
      fs.writeFileSync(path.join(root, 'src/a.ts'), 'one\ntwo\n');
      const { references } = await renderReview('src/a.ts:2 and src/a.ts:3', new ReferenceResolver([root]));
      expect(references).toEqual({
        total: 2,
        resolved: 1,
        unchecked: 0,
        broken: [{ reference: 'src/a.ts:3', line: 1, reason: 'line 3 is past the end of src/a.ts (2 lines)' }],
      });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('hostile markdown', () => {
  const ALLOWED_TAGS = new Set([
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'a',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'em',
    'strong',
    's',
    'span',
    'blockquote',
    'hr',
    'br',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ]);
  const ALLOWED_ATTRIBUTES = new Set([
    'class',
    'href',
    'title',
    'data-ref',
    'data-external',
    'data-line',
    'style',
    'start',
  ]);

  /** Every tag and attribute in the output is one the renderer means to write, and no value is dangerous. */
  function expectSafe(html: string): void {
    expect(html).not.toMatch(/<script/i);
    for (const [, name, attributes] of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
      expect(ALLOWED_TAGS).toContain(name.toLowerCase());
      const attributeText = attributes.replace(/="[^"]*"/g, '');
      expect(attributeText.trim()).toMatch(/^(?:[a-z-]+\s*)*$/); // nothing outside quoted values
      for (const [, attribute, value] of attributes.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)) {
        expect(ALLOWED_ATTRIBUTES).toContain(attribute);
        expect(attribute).not.toMatch(/^on/i);
        if (attribute === 'href') expect(value).toBe('#');
        expect(value).not.toMatch(/javascript:|vbscript:|command:|data:|vscode:/i);
      }
    }
  }

  it.each<[string, string, string[]?]>([
    ['a script element', '<script>alert(1)</script>', ['&lt;script&gt;alert(1)&lt;/script&gt;']],
    ['a javascript: link', '[x](javascript:alert(1))', ['<p data-line="0">x</p>']],
    ['an upper-case JAVASCRIPT: link', '[x](JAVASCRIPT:alert(1))', ['<p data-line="0">x</p>']],
    ['a tab entity hiding the scheme', '[x](java&#09;script:alert(1))', ['<p data-line="0">x</p>']],
    ['an entity-encoded scheme', '[x](&#x6A;avascript:alert(1))', ['<p data-line="0">x</p>']],
    ['a percent-encoded scheme', '[x](%6Aavascript:alert(1))', ['<p data-line="0">x</p>']],
    ['a vbscript: link', '[x](vbscript:msgbox(1))', ['<p data-line="0">x</p>']],
    ['an img with onerror', '<img src=x onerror=alert(1)>', ['&lt;img src=x onerror=alert(1)&gt;']],
    [
      'an svg data: image',
      '![x](data:image/svg+xml,%3Csvg%20onload=alert(1)%3E)',
      ['<span class="redline-image">x</span>'],
    ],
    ['a data: html link', '[x](data:text/html,<script>alert(1)</script>)'],
    ['a command: link', '[x](command:workbench.action.terminal.new)', ['<p data-line="0">x</p>']],
    [
      'a command: link with arguments',
      '[x](command:vscode.open?%5B%22file%3A%2F%2F%2Fetc%2Fpasswd%22%5D)',
      ['<p data-line="0">x</p>'],
    ],
    ['a vscode:// link', '[x](vscode://ms-vscode.remote/open?x=1)', ['<p data-line="0">x</p>']],
    ['a file: URI on another host', '[x](file://evil.example/share/a.ts)', ['<p data-line="0">x</p>']],
    [
      'a raw anchor',
      '<a href="javascript:alert(1)">x</a>',
      ['&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;'],
    ],
    ['a javascript: autolink', '<javascript:alert(1)>', ['<p data-line="0">javascript:alert(1)</p>']],
    ['a command: autolink', '<command:workbench.action.terminal.new>'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', ['&lt;iframe']],
    ['a style element', '<style>body { display: none }</style>', ['&lt;style&gt;']],
    ['an svg with onload', '<svg onload=alert(1)>'],
    [
      'a title that breaks out of its attribute',
      '[x](src/a.ts:1 "\\" onmouseover=alert(1) x=\\"")',
      ['data-ref="src/a.ts:1"'],
    ],
    ['quotes in a destination', '[x](src/a.ts:1"onmouseover="alert(1))'],
    ['a reference-style javascript: link', '[x][r]\n\n[r]: javascript:alert(1)', ['<p data-line="0">x</p>']],
    ['markup in a link text', '[<img src=x onerror=alert(1)>](src/a.ts:1)', ['&lt;img src=x onerror=alert(1)&gt;</a>']],
    ['a fence info string that breaks out', '```"><script>alert(1)</script>\ncode\n```'],
    ['inline code holding a javascript: URL', '`javascript:alert(1)`', ['<code>javascript:alert(1)</code>']],
    ['a linkified URL with quotes', 'https://example.com/"onmouseover="alert(1)'],
    ['a NUL and controls', 'src/a.ts:1\u0000 [x](src/a.ts:2%00) `src/a\u0007.ts:3`'],
  ])('%s', async (_name, markdown, expected = []) => {
    const html = await htmlOf(markdown);
    expectSafe(html);
    for (const piece of expected) expect(html).toContain(piece);
  });
});

describe('mermaid diagrams', () => {
  it('leaves a mermaid block for the webview to draw: its source escaped, not highlighted, not linked', async () => {
    const html = await htmlOf(
      'Intro\n\n```mermaid\nflowchart LR\n  A["<img src=x onerror=alert(1)>"] --> B[src/a.ts:3]\n  click A "javascript:alert(2)"\n```\n',
    );
    expect(html).toBe(
      '<p data-line="0">Intro</p>\n' +
        '<pre class="redline-mermaid" data-line="2"><code class="language-mermaid">flowchart LR\n' +
        '  A[&quot;&lt;img src=x onerror=alert(1)&gt;&quot;] --&gt; B[src/a.ts:3]\n' +
        '  click A &quot;javascript:alert(2)&quot;\n</code></pre>\n',
    );
  });

  it('knows the language in any case and with an info string; other blocks are unchanged', async () => {
    expect(await htmlOf('```Mermaid title="x"\ngraph TD\n```\n')).toBe(
      '<pre class="redline-mermaid" data-line="0"><code class="language-mermaid">graph TD\n</code></pre>\n',
    );
    expect(await htmlOf('```mermaidx\ngraph TD\n```\n')).toBe(
      '<pre data-line="0"><code class="language-mermaidx">graph TD\n</code></pre>\n',
    );
    expect((await render('x\n\n```mermaid\ngraph TD\n```\n', 10)).html).toContain(
      '<pre class="redline-mermaid" data-line="12">',
    );
  });
});

describe('tables', () => {
  it('aligns cells with classes, never inline styles (the CSP forbids them)', async () => {
    const { html } = await renderReview('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n', {
      resolve: () => ({ status: 'broken', reason: 'x' }),
    });
    expect(html).not.toContain('style=');
    expect(html).toContain('<th class="align-left"');
    expect(html).toContain('<td class="align-center"');
    expect(html).toContain('<td class="align-right"');
  });
});

describe('fragments and references that were not checked', () => {
  it('offsets data-line and report lines by lineOffset, so an appended part matches the whole review', async () => {
    const { html, references } = await render('# More\n\nbad nope.ts:4\n', 40);
    expect(html).toContain('<h1 data-line="40">');
    expect(html).toContain('<p data-line="42">');
    expect(references.broken).toEqual([{ reference: 'nope.ts:4', line: 43, reason: 'no file nope.ts in /cwd' }]);
  });

  it('shows a reference past the budget as a plain link that says it was not checked, and never as broken', async () => {
    const unchecked: Resolution = {
      status: 'unchecked',
      reason: 'not checked: this review names more files than one render looks at',
    };
    const { html, references } = await renderReview('see src/z.ts:3 and `src/z.ts`', { resolve: () => unchecked });
    expect(html).toContain(
      '<a class="redline-ref" href="#" data-ref="src/z.ts:3" title="Open src/z.ts:3 (not checked: this review names more files than one render looks at)">src/z.ts:3</a>',
    );
    expect(html).toContain('<code>src/z.ts</code>'); // path-only code links only when the file is known to exist
    expect(references).toEqual({ total: 1, resolved: 0, unchecked: 1, broken: [] });
  });

  it('renders through ReviewRenderer, keeping the last full render of a review', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-renderer-'));
    try {
      writeFixtureFiles(root);
      const renderer = new ReviewRenderer(() => [root]);
      const first = await renderer.render({ revision: 1, markdown: 'src/mod1/index.ts:400 and src/mod1/index.ts:401' });
      expect(first.references).toEqual({
        total: 2,
        resolved: 1,
        unchecked: 0,
        broken: [
          {
            reference: 'src/mod1/index.ts:401',
            line: 1,
            reason: 'line 401 is past the end of src/mod1/index.ts (400 lines)',
          },
        ],
      });
      expect(await renderer.render({ revision: 1, markdown: 'src/mod1/index.ts:400 and src/mod1/index.ts:401' })).toBe(
        first,
      );
      // Each assistant's review counts its own revisions: the same number with other text is another review.
      const other = await renderer.render({ revision: 1, markdown: 'another assistant at src/mod1/index.ts:3' });
      expect(other).not.toBe(first);
      expect(other.references).toMatchObject({ total: 1, resolved: 1 });
      // Both are kept: the panel showing one and the findings of the other do not render each other out.
      expect(await renderer.render({ revision: 1, markdown: 'src/mod1/index.ts:400 and src/mod1/index.ts:401' })).toBe(
        first,
      );
      expect(await renderer.render({ revision: 1, markdown: 'another assistant at src/mod1/index.ts:3' })).toBe(other);
      const dense = await renderer.render({ revision: 2, markdown: denseReview(2_000) });
      expect(dense.references).toMatchObject({ total: 2_000, resolved: 2_000, unchecked: 0 });
      expect(renderer.lineCounts.reads).toBe(20); // 20 files, each read once across the renders
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('adversarial brackets', () => {
  it('renders openers without a closing bracket as the text they are', async () => {
    expect(await htmlOf('![![[ a ![b] [c](src/a.ts:1) ![')).toBe(
      '<p data-line="0">![![[ a ![b] <a class="redline-ref" href="#" data-ref="src/a.ts:1" title="Open src/a.ts:1">c</a> ![</p>\n',
    );
    expect(await htmlOf('![x](y) [z] ![![')).toBe(
      '<p data-line="0"><span class="redline-image">x</span> [z] ![![</p>\n',
    );
  });
});

describe('link destinations', () => {
  it('keeps markdown-it’s normalised form of every destination (the plain-path fast path included)', async () => {
    const reference = new MarkdownIt();
    const targets = [
      'src/a.ts:12',
      'src/a.ts#L10-L20',
      '../x/y.ts:3:4',
      'Makefile:1',
      'aZ:0',
      '-.a.:a_::',
      '//a0::',
      'a b.ts:1',
      'src/ü.ts:2',
      'x%20y.ts:3',
    ];
    for (let i = 0; i < 300; i++)
      targets.push(Array.from({ length: 1 + (i % 12) }, (_, j) => 'aZ09_./-:#L'[(i * 7 + j * 13) % 11]).join(''));
    for (const target of targets) {
      const { html } = await renderReview(`[x](<${target}>)`, files);
      const ref = /data-ref="([^"]*)"/.exec(html)?.[1];
      if (ref !== undefined)
        expect([target, ref]).toEqual([target, reference.utils.escapeHtml(reference.normalizeLink(target))]);
    }
  });
});

describe('a page in slices: the first screen, then the rest', () => {
  const long = [
    '# Review',
    ...Array.from({ length: 400 }, (_, i) =>
      i % 50 === 0
        ? `\n- item ${i} at src/a.ts:${(i % 90) + 1}\n- nested\n  - deeper\n`
        : `Line ${i} of prose, see src/a.ts:${(i % 90) + 1}.\n`,
    ),
    '> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```\n\n---\n',
  ].join('\n');

  it('splits a long review between top-level blocks', async () => {
    const { html, slices } = await render(long);
    const firstScreen = slices?.[0];
    expect(firstScreen).toBeGreaterThan(0);
    expect(firstScreen).toBeLessThan(html.length);
    expect(html.slice(0, firstScreen)).toMatch(/<\/(p|ul|h1|pre)>\n$/);
    expect(html.slice(firstScreen!)).toMatch(/^<(p|ul|h1|pre)[ >]/);
  });

  it('does not split a review that fits in one screen', async () => {
    expect((await render(long.split('\n').slice(0, 150).join('\n'))).slices).toBeUndefined();
  });

  it("changes nothing: the slices joined are markdown-it's render of the whole", () => {
    const md = new MarkdownIt();
    for (const markdown of [
      long,
      long.replace(/^- /gm, '1. '),
      `${'para\n\n'.repeat(150)}> a\n> b\n\n${'x\n\n'.repeat(150)}`,
    ]) {
      const tokens = md.parse(markdown, {});
      const split = renderInSlices(md, tokens, { env: {} });
      expect(split.slices).toBeDefined();
      expect(split.html).toBe(md.renderer.render(tokens, md.options, {}));
    }
  });

  it('cuts a long page into slices of about SLICE_CHARS, at most SLICE_ELEMENTS, each of whole top-level blocks', () => {
    const md = new MarkdownIt();
    const markdown = Array.from(
      { length: 200_000 },
      (_, i) => (i % 500 === 0 ? `## Part ${i}\n\n` : '') + `Paragraph ${i} with *some* words in it.\n`,
    ).join('\n');
    const tokens = md.parse(markdown, {});
    const { html, slices = [] } = renderInSlices(md, tokens, { env: {} });
    expect(html).toBe(md.renderer.render(tokens, md.options, {}));
    expect(slices.length).toBeGreaterThan(4);
    const bounds = [0, ...slices, html.length];
    for (let i = 1; i < bounds.length; i++) {
      const slice = html.slice(bounds[i - 1], bounds[i]);
      expect(slice).toMatch(/^<(p|h2)>/);
      expect(slice).toMatch(/<\/(p|h2)>\n$/);
      // Never much past the panel's task's worth.
      expect(slice.length).toBeLessThan(SLICE_CHARS * 1.5);
    }
    // After the first screen and a first guess, each (but the last, which is what is left) is about SLICE_CHARS.
    const sizes = bounds.slice(3, -1).map((end, i) => end - bounds[i + 2]);
    expect(sizes.length).toBeGreaterThan(2);
    for (const size of sizes) expect(size).toBeGreaterThan(SLICE_CHARS / 2);
    const elements = bounds.slice(1).map((end, i) => html.slice(bounds[i], end).match(/<[a-z]/g)!.length);
    expect(Math.max(...elements)).toBeLessThanOrEqual(SLICE_ELEMENTS);
  });

  it('cuts a slice at SLICE_ELEMENTS elements, however little HTML they make', () => {
    const md = new MarkdownIt();
    // Items of one character: SLICE_ELEMENTS of them are far less HTML than SLICE_CHARS.
    const markdown = Array.from({ length: 3 * SLICE_ELEMENTS }, (_, i) => `${i % 2 ? '- ' : '* '}x\n`).join('');
    const tokens = md.parse(markdown, {});
    const { html, slices = [] } = renderInSlices(md, tokens, { env: {} });
    expect(html).toBe(md.renderer.render(tokens, md.options, {}));
    const bounds = [0, ...slices, html.length];
    const elements = bounds.slice(1).map((end, i) => html.slice(bounds[i], end).match(/<[a-z]/g)!.length);
    expect(elements.length).toBeGreaterThan(3);
    expect(Math.max(...elements)).toBeLessThanOrEqual(SLICE_ELEMENTS);
  });
});
