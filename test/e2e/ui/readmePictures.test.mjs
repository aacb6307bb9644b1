// The README's pictures, taken from the sample review in a window of their own: the main loop
// recorded frame by frame (an assistant presents, a link is clicked, a finding is answered, the
// assistant reads the answer), and a screenshot per feature. Every step asserts what the user sees,
// so a picture is only taken of a Redline that works. `npm run screenshots` makes docs/images/ from them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS_DIR, openFile, runCommand } from '../harness/workbench.mjs';
import { Recording } from './recording.mjs';
import { session, windowOfItsOwn } from './session.mjs';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SAMPLE = join(REPO_ROOT, 'extension/sample');
const sampleReview = readFileSync(join(SAMPLE, 'review.md'), 'utf8');
/** The MCP client names the assistants send, which name their tabs and their comments' author. */
const ASSISTANT = 'claude-code';
const SECOND_ASSISTANT = 'codex-mcp-client';
export const MAIN_LOOP_DIR = join(ARTIFACTS_DIR, 'main-loop');

describe('README pictures: the main loop on the sample review', () => {
  /** @type {import('./session.mjs').RedlineSession} */
  let s;
  /** @type {any[]} */
  let findings;

  const ownWindow = windowOfItsOwn({
    workspaceTemplate: join(SAMPLE, 'workspace'),
    assistant: ASSISTANT,
    // The code and the review side by side, nothing else: VS Code's Comments view would open
    // below them at the first thread.
    settings: { 'comments.openView': 'never' },
  });

  before(async function () {
    s = ownWindow();
    await runCommand(s.page, 'View: Close Primary Side Bar');
    // The empty panel the session opened goes: the review then opens beside the code, as it does
    // for a user who is reading code.
    await runCommand(s.page, 'View: Close All Editors');
    await openFile(s.page, 'src/rateLimiter.ts');
  });

  it('records the main loop: presented, a link followed, a finding answered, the answer read', async function () {
    const recording = new Recording(s.page, MAIN_LOOP_DIR);
    await recording.start();
    await recording.hold(800);

    await recording.caption('1. Your assistant reviews your code and presents the review');
    const presented = await s.call('present-review', { content: sampleReview, title: 'Rate limiter review' });
    findings = presented.findings;
    assert.equal(findings.length, 4);
    const frame = await s.waitForReviewText('Review: the token-bucket rate limiter');
    const { resolved, total } = presented.references;
    await recording.caption(
      '1. Your assistant reviews your code and presents the review',
      `present-review → ${findings.length} findings, ${resolved} of ${total} references resolved`,
    );
    await recording.hold(2500);

    await recording.caption('2. Every file:line is a link');
    await recording.click(frame.locator('#review a.redline-ref[data-ref="src/rateLimiter.ts:36"]').first());
    await s.waitForCursor(36);
    await recording.hold(2000);

    await recording.caption('3. Answer a finding: accept it, reply, or send a message');
    const cursor = (await s.call('get-review-feedback')).cursor;
    const second = frame.locator(`#review [data-finding="${findings[1].id}"]`);
    await recording.click(second.locator('.redline-finding-actions button', { hasText: 'Accept' }));
    await second.locator('.redline-finding-badge', { hasText: 'Accepted' }).waitFor({ state: 'visible' });
    await recording.hold(800);
    const message = 'Fix both bugs, and add a test for the refill.';
    await recording.click(frame.locator('#message'));
    await frame.locator('#message').pressSequentially(message, { delay: 30 });
    await recording.click(frame.locator('#send'));
    await frame.locator('#send-status', { hasText: 'Sent' }).waitFor({ state: 'visible' });
    await recording.hold(1200);

    const { items } = await s.call('get-review-feedback', { since: cursor });
    assert.deepEqual(
      items.map((/** @type {any} */ item) => [item.kind, item.state ?? item.text]),
      [
        ['state', 'accepted'],
        ['message', message],
      ],
    );
    await recording.caption(
      '4. Your assistant reads your answers, and gets to work',
      `get-review-feedback → accepted “${findings[1].title}”; “${message}”`,
    );
    await recording.hold(4000);
    const { frames, seconds } = await recording.stop();
    assert.ok(frames > 10, `the recording has ${frames} frames`);
    await s.screenshot('readme-review');
    session().figures['README recording'] = `${frames} frames over ${seconds.toFixed(1)} s`;
  });

  it("a finding's code with its comment thread, beside the review", async () => {
    const frame = await s.reviewFrame();
    await frame.locator(`#review [data-finding="${findings[0].id}"]`).click({ position: { x: 5, y: 5 } });
    await s.waitForCursor(41);
    await s.page.locator('.review-widget', { hasText: 'The bucket overflows' }).first().waitFor({ state: 'visible' });
    await s.screenshot('readme-finding-thread');
  });

  it("a second assistant's review in a tab of its own", async () => {
    const codex = await s.connectAssistant(SECOND_ASSISTANT);
    try {
      const content = [
        '# Review: the server',
        '',
        '- suggestion: src/server.ts:17 reads `PORT` without checking it; a typo there listens on a random port.',
        '- nit: src/server.ts:11 could say which limit was hit.',
        '',
      ].join('\n');
      const result = await codex.callTool({ name: 'present-review', arguments: { content, title: 'Server review' } });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const frame = await s.waitForReviewText('Review: the server');
      const tabs = frame.locator('#tabs .redline-tab');
      await tabs.nth(1).waitFor({ state: 'visible' });
      assert.deepEqual(await tabs.allInnerTexts(), [ASSISTANT, SECOND_ASSISTANT]);
      await s.screenshot('readme-assistants');
      await frame.locator('#tabs .redline-tab', { hasText: ASSISTANT }).click();
      await s.waitForReviewText('Review: the token-bucket rate limiter');
    } finally {
      await codex.close();
    }
  });

  it('compare with the previous review: new, fixed, still open', async () => {
    // The assistant's second pass: the refill was fixed, the rest is still there, and one is new.
    const secondPass = sampleReview
      .replace(/^- bug: \*\*The bucket overflows\.\*\*[\s\S]*?```\n\n/m, '')
      .replace(
        '## How a request flows',
        '- nit: src/rateLimiter.ts:24 `tryAcquire` could say in its name that it does not wait.\n\n## How a request flows',
      );
    assert.notEqual(secondPass, sampleReview);
    await s.call('present-review', { content: secondPass, title: 'Rate limiter review, second pass' });
    const frame = await s.waitForReviewText('tryAcquire');
    await frame.locator('#compare').click();
    const box = frame.locator('#comparison');
    await box.waitFor({ state: 'visible' });
    const headings = (await box.locator('h3').allInnerTexts()).join(' | ');
    assert.match(headings, /New/);
    assert.match(headings, /Fixed/);
    await s.screenshot('readme-compare');
  });

  it('Redline: Show Sample Review shows the shipped sample in a tab of its own, its links opening the shipped files', async () => {
    await runCommand(s.page, 'Redline: Show Sample Review');
    const frame = await s.waitForReviewText('Review: the token-bucket rate limiter');
    const tabs = frame.locator('#tabs .redline-tab');
    await frame.locator('#tabs .redline-tab[aria-selected="true"]', { hasText: 'Sample review' }).waitFor();
    assert.deepEqual(await tabs.allInnerTexts(), [ASSISTANT, SECOND_ASSISTANT, 'Sample review']);
    // Its references resolve in the extension's own copy of the files: all but the one it breaks on purpose.
    assert.equal(await frame.locator('#review .redline-broken').count(), 1);
    await frame.locator('#review a.redline-ref[data-ref="src/rateLimiter.ts:36"]').first().click();
    await s.waitForCursor(36);
    const { editor } = await s.call('get-selection');
    const installed = dirname(dirname(/** @type {string} */ (s.serverPath)));
    assert.equal(editor.path, join(installed, 'extension/sample/workspace/src/rateLimiter.ts'));
    // A file outside the workspace would have opened only after a question; this one is the extension's own.
    assert.equal(await s.page.locator('.monaco-dialog-box').count(), 0);
  });
});
