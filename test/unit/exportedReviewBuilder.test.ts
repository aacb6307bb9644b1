// The review as it leaves the window: findings where their code is now, the user's answers, and
// paths relative to the top of the checkout that holds the workspace.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findingFingerprint } from '../../shared/exchange/exportedReview';
import { buildExportedReview } from '../../extension/src/exchange/exportedReviewBuilder';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { AssistantReviews } from '../../extension/src/review/assistantReviews';
import { silentLogger } from '../../shared/logger';
import { findingsAttacher } from '../support/findingsAttacher';

describe('buildExportedReview', () => {
  let root: string;
  let reviews: AssistantReviews;
  let renderer: ReviewRenderer;
  let workspace: string;

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'redline-export-')));
    // The workspace is a folder inside the checkout: paths are relative to the checkout's top.
    fs.mkdirSync(path.join(root, '.git'));
    workspace = path.join(root, 'packages', 'app');
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, 'src/a.ts'),
      Array.from({ length: 20 }, (_, i) => `const a${i + 1} = ${i + 1};`).join('\n') + '\n',
    );
    renderer = new ReviewRenderer(() => [workspace]);
    reviews = await AssistantReviews.open({
      root: undefined,
      historySize: 5,
      log: silentLogger,
      renderer,
      attachFindings: findingsAttacher(renderer),
    });
  });

  afterEach(async () => {
    await reviews.dispose();
    await renderer.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is undefined while nothing is shown', async () => {
    expect(await buildExportedReview(reviews.primary, (cwd) => renderer.roots(cwd))).toBeUndefined();
  });

  it('gives each finding where its code is now, its state and replies, relative to the checkout', async () => {
    const owner = await reviews.forAssistant('Claude Code');
    const markdown = '# Review\n\n- **bug**: `a3` is off by one in src/a.ts:3-4\n- nit: rename src/a.ts:10\n';
    await owner.store.present({
      content: markdown,
      mode: 'replace',
      title: 'Pass 1',
      assistant: 'Claude Code',
      cwd: workspace,
    });
    const [bug, nit] = await owner.findings.current();
    // The user answers, then inserts two lines at the top of the file.
    await owner.conversation.add({ kind: 'reply', findingId: bug.id, text: 'Fixed in the next commit.' });
    await owner.conversation.add({ kind: 'state', findingId: bug.id, state: 'resolved' });
    await owner.conversation.add({ kind: 'state', findingId: nit.id, state: 'wont-fix' });
    const file = path.join(workspace, 'src/a.ts');
    fs.writeFileSync(file, '// one\n// two\n' + fs.readFileSync(file, 'utf8'));

    const exported = (await buildExportedReview(owner, (cwd) => renderer.roots(cwd)))!;
    expect(exported).toMatchObject({
      assistant: 'Claude Code',
      title: 'Pass 1',
      revision: 1,
      markdown,
      repositoryRoot: root,
    });
    expect(exported.findings).toEqual([
      expect.objectContaining({
        id: bug.id,
        file: 'packages/app/src/a.ts',
        line: 5,
        endLine: 6,
        severity: 'bug',
        state: 'resolved',
        stale: false,
        replies: [{ text: 'Fixed in the next commit.', at: expect.any(String) }],
        fingerprint: findingFingerprint('packages/app/src/a.ts', bug.title),
      }),
      expect.objectContaining({ id: nit.id, line: 12, endLine: 12, severity: 'nit', state: 'wont-fix', replies: [] }),
    ]);
    expect(exported.findings[0].markdown).toContain('off by one');
  });

  it('falls back to the workspace folder when no checkout holds it', async () => {
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    await reviews.primary.store.present({ content: '- bug: src/a.ts:1', mode: 'replace' });
    const exported = (await buildExportedReview(reviews.primary, (cwd) => renderer.roots(cwd)))!;
    expect(exported.repositoryRoot).toBe(workspace);
    expect(exported.findings.map((finding) => finding.file)).toEqual(['src/a.ts']);
  });
});
