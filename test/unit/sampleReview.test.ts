// The sample review Redline ships (Redline: Show Sample Review, and npm start): every reference but
// the one it means to show broken resolves in the shipped files, and those files count as inside
// only for a review whose cwd lies in them.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SampleReview } from '../../extension/src/constants';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';

const root = path.join(__dirname, '../..');
const markdown = fs.readFileSync(path.join(root, ...SampleReview.markdown), 'utf8');
const bundled = path.join(root, ...SampleReview.workspace);

describe('the sample review', () => {
  let workspace: string;
  let renderer: ReviewRenderer;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-sample-'));
    renderer = new ReviewRenderer(() => [workspace], { bundledFolders: [bundled] });
  });
  afterEach(async () => {
    await renderer.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('resolves in the shipped files, with one broken reference on purpose', async () => {
    const rendered = await renderer.render({ revision: 1, markdown, cwd: bundled });
    expect(rendered.references.broken.map((broken) => broken.reference)).toEqual(['src/rateLimiter.test.ts:12']);
    expect(rendered.references.resolved).toBeGreaterThanOrEqual(8);
    expect(rendered.findings.map((finding) => [finding.severity, finding.file, finding.line])).toEqual([
      ['bug', path.join(bundled, 'src/rateLimiter.ts'), 41],
      ['bug', path.join(bundled, 'src/rateLimiter.ts'), 36],
      ['risk', path.join(bundled, 'src/rateLimiter.ts'), 49],
      ['question', path.join(bundled, 'src/server.ts'), 10],
    ]);
    expect(rendered.findings[0].suggestions).toHaveLength(1);
    expect(rendered.html).toContain('language-mermaid');
  });

  it('counts the shipped folder as inside only for a cwd in it', async () => {
    expect(renderer.roots(path.join(bundled, 'src'))).toEqual([path.join(bundled, 'src'), workspace]);
    expect(renderer.roots(bundled)).toEqual([bundled, workspace]);
    expect(renderer.roots(undefined)).toEqual([workspace]);
    expect(renderer.roots(path.dirname(bundled))).toEqual([workspace]);
    const elsewhere = await renderer.render({ revision: 1, markdown, cwd: os.tmpdir() });
    expect(elsewhere.references.resolved).toBe(0);
  });
});
