// Two assistants in one window, as the user sees them: each review a tab named after its
// assistant, a click on a tab shows that review, and each assistant reads and hears only its own.
import assert from 'node:assert/strict';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session } from './session.mjs';

const SECOND = 'codex-e2e';
const FIRST = 'redline-e2e-ui';

describe('Several assistants in one window', () => {
  /** @type {import('@modelcontextprotocol/sdk/client/index.js').Client | undefined} */
  let codex;
  const mine = RedlineSession.marker('MINE');
  const theirs = RedlineSession.marker('THEIRS');
  /** @param {string} name @param {Record<string, unknown>} args */
  const callCodex = async (name, args = {}) => {
    const result = /** @type {any} */ (await codex?.callTool({ name, arguments: args }));
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };

  after(async () => {
    await codex?.close().catch(() => {});
  });

  it("a second assistant's review is a tab of its own, and the first one's stays", async () => {
    const s = session();
    await s.call('present-review', {
      title: 'Mine',
      content: `# Mine ${mine}\n\n- **bug**: the loop at src/example.ts:42 never stops\n`,
    });
    await s.waitForReviewText(mine);
    codex = await s.connectAssistant(SECOND);
    await callCodex('present-review', {
      title: 'Theirs',
      content: `# Theirs ${theirs}\n\n- nit: naming at src/example.ts:10\n`,
    });
    const frame = await s.waitForReviewText(theirs);
    const tabs = frame.locator('#tabs .redline-tab');
    await frame.locator('#tabs').waitFor({ state: 'visible' });
    assert.deepEqual(await tabs.allInnerTexts(), [FIRST, SECOND]);
    assert.equal(await frame.locator(`#tabs .redline-tab[aria-selected="true"]`).innerText(), SECOND);
    // Each reads its own review.
    assert.match((await s.call('get-review')).markdown, new RegExp(mine));
    assert.match((await callCodex('get-review')).markdown, new RegExp(theirs));
    await s.screenshot('21-assistant-tabs');
  });

  it("a click on a tab shows that assistant's review, with its findings", async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator('#tabs .redline-tab', { hasText: FIRST }).click();
    await s.waitForReviewText(mine);
    assert.equal(await frame.locator(`#tabs .redline-tab[aria-selected="true"]`).innerText(), FIRST);
    await frame
      .locator('#review .redline-finding-actions button', { hasText: 'Resolve' })
      .first()
      .waitFor({ state: 'visible' });
    assert.doesNotMatch(await frame.locator('#review').innerText(), new RegExp(theirs));
  });

  it("what the user says on a tab reaches that tab's assistant only", async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await frame.locator('#tabs .redline-tab', { hasText: SECOND }).click();
    await s.waitForReviewText(theirs);
    const mineBefore = (await s.call('get-review-feedback')).cursor;
    const theirsBefore = (await callCodex('get-review-feedback')).cursor;
    await frame.locator('#review .redline-finding-actions button', { hasText: 'Resolve' }).first().click();
    await frame.locator('#review .redline-finding-badge', { hasText: 'Resolved' }).waitFor({ state: 'visible' });
    const heard = await callCodex('get-review-feedback', { since: theirsBefore });
    assert.deepEqual(
      heard.items.map((/** @type {any} */ i) => [i.kind, i.state]),
      [['state', 'resolved']],
    );
    assert.deepEqual((await s.call('get-review-feedback', { since: mineBefore })).items, []);
  });

  it('"Clear Review" clears the tab shown; the other assistant\'s review comes back alone', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    await runCommand(s.page, 'Redline: Clear Review');
    await frame.locator('#empty').waitFor({ state: 'visible' });
    assert.match((await s.call('get-review')).markdown, new RegExp(mine), "the first assistant's review is untouched");
    assert.equal((await callCodex('get-review')).revision, 0);
    await frame.locator('#tabs .redline-tab', { hasText: FIRST }).click();
    await s.waitForReviewText(mine);
    // One review left: no tabs to choose between.
    await frame.locator('#tabs').waitFor({ state: 'hidden' });
  });
});
