import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { renderReview } from '../../extension/src/render/markdownRenderer';
import { ReferenceResolver } from '../../extension/src/render/referenceResolver';
import { runRenderJob } from '../../extension/src/render/renderJob';
import { LineCountCache } from '../../extension/src/render/fileFacts';

describe('```suggestion blocks', () => {
  let root: string;
  const render = (markdown: string) => renderReview(markdown, new ReferenceResolver([root]));
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-suggest-'));
    fs.writeFileSync(path.join(root, 'a.ts'), ['const a = 1;', 'let b = a + 1;', 'export { b };', ''].join('\n'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("render as a diff against the finding's lines on disk, with Apply…", async () => {
    const { html, findings } = await render(
      '- **bug**: b should be const, a.ts:2\n\n  ```suggestion\n  const b = a + 1;\n  ```\n',
    );
    expect(findings).toHaveLength(1);
    expect(findings[0].suggestions).toEqual(['const b = a + 1;']);
    expect(html).toContain('<div class="redline-suggestion" data-line="2">');
    expect(html).toContain('Suggested change to <code>a.ts:2</code>');
    expect(html).toContain(`data-apply-finding="${findings[0].id}" data-apply-index="0"`);
    expect(html).toContain(
      '<span class="redline-diff-del">- let b = a + 1;</span>\n<span class="redline-diff-add">+ const b = a + 1;</span>',
    );
  });

  it("render their diff against the unsaved text of the file's editor, which Apply… changes, when there is one", async () => {
    const markdown = '- **bug**: b should be const, a.ts:2\n\n  ```suggestion\n  const b = a + 1;\n  ```\n';
    const unsaved = new Map([
      [
        path.join(root, 'a.ts'),
        ['const a = 1;', 'var b = a + 2; // edited, not saved', 'export { b };', ''].join('\n'),
      ],
    ]);
    const { html } = await renderReview(markdown, new ReferenceResolver([root]), { unsaved });
    expect(html).toContain('<span class="redline-diff-del">- var b = a + 2; // edited, not saved</span>');
    expect(html).not.toContain('let b = a + 1;');
    // Through the render worker's job too, as the window sends it.
    const job = await runRenderJob({ markdown, roots: [root], unsaved: [...unsaved] }, new LineCountCache());
    expect(job.html).toContain('<span class="redline-diff-del">- var b = a + 2; // edited, not saved</span>');
  });

  it('belong to the paragraph right before them, and escape what they show', async () => {
    const { html, findings } = await render(
      'risk: unsafe at a.ts:1-2.\n\n```suggestion\nconst a = "<img src=x onerror=alert(1)>";\nlet b = a;\n```\n',
    );
    expect(findings[0].suggestions).toEqual(['const a = "<img src=x onerror=alert(1)>";\nlet b = a;']);
    expect(html).not.toContain('<img');
    expect(html).toContain('+ const a = &quot;&lt;img src=x onerror=alert(1)&gt;&quot;;');
    expect(html).toContain('<span class="redline-diff-del">- const a = 1;</span>');
  });

  it('stay plain code when they follow no finding', async () => {
    const { html } = await render(
      '# Title\n\n```suggestion\nx\n```\n\n- a.ts:99 is past the end\n\n  ```suggestion\n  y\n  ```\n',
    );
    expect(html).not.toContain('redline-suggestion');
    expect(html).toContain('<code class="language-suggestion">x\n</code>');
  });
});
