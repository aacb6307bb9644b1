// The review in a chat: a host that renders MCP Apps (the MCP SDK's client and ext-apps' AppBridge,
// chatHost/host.mjs) in a page of the same browser, its client relayed to a process of the packaged
// MCP server started from this window's terminal environment. present-review shows the view with
// the findings; a finding's place opens the editor at its line; Resolve and a reply in the view are
// the user's answers in the panel and in get-review-feedback, with the source "chat"; the view
// follows the host's theme at 4.5:1; and a hostile review stays text, calls nothing and renders in
// its time. The screenshot of the view is the README's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '../harness/workbench.mjs';
import { bundleHost, openChatHost } from './chatHost/chatHost.mjs';
import { session, waitFor } from './session.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The host's name for the assistant: a tab of its own in the panel. */
const CHAT = 'chat-host';
const REVIEW = [
  '# Pricing review',
  '',
  '- **bug**: the coupon at src/example.ts:26-27 is applied after tax,',
  '  so a customer pays tax on the full price.',
  '- risk: src/example.ts:24 hard-codes the tax rate for every country',
  '- nit: the name at src/util.ts:3 says nothing of what it rounds',
].join('\n');

const HOSTILE_TITLE = '<img src=x onerror="parent.postMessage(1,\'*\')"> <a href="javascript:alert(1)">hostile</a>';

/** A review an assistant could be tricked into writing, with more findings than the window keeps. */
function hostileReview() {
  const lines = [
    '# <img src=x onerror="parent.postMessage(1,\'*\')"> hostile',
    '',
    '- **bug**: <script>window.top.alert(1)</script> at src/example.ts:30 [click](javascript:alert(1))',
    '- nit: @octocat please look at src/example.ts:31 <iframe src="https://example.com"></iframe>',
  ];
  for (let i = 0; i < 10_000; i++) lines.push(`- nit: finding ${i} at src/example.ts:${(i % 60) + 1}`);
  return lines.join('\n');
}

/** The view's renders so far, as it measured them: findings and milliseconds. @param {import('playwright-core').Frame} frame */
const renders = (frame) =>
  frame.evaluate(() =>
    performance
      .getEntriesByName('redline-view-render')
      .map((entry) => ({ findings: /** @type {any} */ (entry).detail.findings, ms: entry.duration })),
  );

describe('the review in a chat (an MCP App in a browser host)', () => {
  /** @type {Awaited<ReturnType<typeof openChatHost>>} */
  let host;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  /** @type {import('playwright-core').Frame} */
  let frame;
  /** @type {Array<{ id: string, line: number }>} */
  let findings;

  before(async function () {
    this.timeout(120_000);
    const s = session();
    // A context of its own in the same browser: the session closes any page opened in the window's.
    const browser = /** @type {import('playwright-core').Browser} */ (s.page.context().browser());
    context = await browser.newContext({ viewport: { width: 820, height: 760 } });
    host = await openChatHost(context, {
      script: await bundleHost(),
      server: {
        path: /** @type {string} */ (s.serverPath),
        cwd: /** @type {string} */ (s.workspace),
        env: s.assistantEnv(),
      },
    });
  });
  after(async () => {
    await host?.close();
    await context?.close();
  });

  it('a client that declares the extension finds present-review linked to the view, and the view’s own tools kept from the model', async () => {
    const tools = await host.page.evaluate((name) => window.chatHost.connect(name), CHAT);
    const meta = Object.fromEntries(tools.map((/** @type {any} */ t) => [t.name, t.meta]));
    assert.equal(meta['present-review']?.ui?.resourceUri, 'ui://redline/review');
    assert.equal(meta['get-review']?.ui?.resourceUri, 'ui://redline/review');
    for (const name of ['get-review-view', 'answer-finding', 'reveal-review'])
      assert.deepEqual(meta[name]?.ui?.visibility, ['app'], name);
  });

  it('present-review shows the view with the findings, their places and states, connected to the window', async () => {
    const result = await host.page.evaluate((args) => window.chatHost.callAndShow('present-review', args), {
      content: REVIEW,
      title: 'Pricing review',
    });
    findings = result.structuredContent.findings;
    assert.equal(findings.length, 3);
    frame = await host.viewFrame();
    await frame.locator('#status[data-state="connected"]').waitFor({ timeout: 15_000 });
    assert.equal(await frame.locator('#title').innerText(), 'Pricing review');
    assert.equal(await frame.locator('li.finding').count(), 3);
    assert.deepEqual(await frame.locator('#counts li').allInnerTexts(), ['1 bug', '1 risk', '1 nit']);
    const first = frame.locator('li.finding').first();
    assert.equal(await first.locator('.place').innerText(), 'src/example.ts:26-27');
    assert.equal(await first.locator('.state').innerText(), 'Open');
    assert.equal(await first.locator('.excerpt').innerText(), 'so a customer pays tax on the full price.');
    // The view as the chat shows it, for the README.
    await host.page.locator('#view').screenshot({ path: join(ARTIFACTS_DIR, 'e2e-ui-62-chat-view.png') });
  });

  it("a finding's place opens the editor at its line, through the host", async function () {
    // The host, the server and the window each take their turn on a busy machine.
    this.timeout(120_000);
    const s = session();
    await frame.locator('li.finding').nth(1).locator('.place').click();
    // The finding's line, selected.
    await s.waitForCursor(24, { selected: 'const TAX_RATE = 0.2;'.length, timeoutMs: 15_000 });
    assert.match(await s.activeEditorTab(), /example\.ts/);
    await frame.locator('#status', { hasText: 'Opened' }).waitFor({ timeout: 30_000 });
  });

  it('Resolve in the view: the panel shows it resolved, and get-review-feedback has it with the source "chat"', async () => {
    const s = session();
    const row = frame.locator(`li.finding[data-id="${findings[0].id}"]`);
    await row.locator('button', { hasText: 'Resolve' }).click();
    await row.locator('.state', { hasText: 'Resolved' }).waitFor({ timeout: 10_000 });
    const panel = await s.reviewFrame();
    await panel
      .locator(`#review [data-finding="${findings[0].id}"] .redline-finding-badge`, { hasText: 'Resolved' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    const feedback = await host.page.evaluate(() => window.chatHost.callTool('get-review-feedback'));
    assert.deepEqual(
      feedback.structuredContent.items.map((/** @type {any} */ i) => [i.kind, i.findingId, i.state, i.source]),
      [['state', findings[0].id, 'resolved', 'chat']],
    );
  });

  it("a reply in the view is the finding's reply, and Open in Redline brings the panel forward", async function () {
    this.timeout(120_000);
    const s = session();
    const row = frame.locator(`li.finding[data-id="${findings[1].id}"]`);
    await row.locator('button', { hasText: 'Reply' }).click();
    await row.locator('textarea').fill('It is the same in every country we sell in today.');
    await row.locator('button', { hasText: 'Send reply' }).click();
    await frame.locator(`li.finding[data-id="${findings[1].id}"] button`, { hasText: 'Reply (1)' }).waitFor();
    const { items } = (await host.page.evaluate(() => window.chatHost.callTool('get-review-feedback')))
      .structuredContent;
    assert.deepEqual(items.at(-1), {
      ...items.at(-1),
      kind: 'reply',
      findingId: findings[1].id,
      text: 'It is the same in every country we sell in today.',
      source: 'chat',
    });
    // Earlier tests may leave an unsaved editor, so the panel is not closed first: the call is what is checked.
    await frame.locator('#open-in-redline').click();
    await frame.locator('#status', { hasText: 'Shown in VS Code' }).waitFor({ timeout: 30_000 });
    await s.waitForReviewText('Pricing review');
    // Every call the view made went through the host, and was one the view may make.
    const called = new Set(
      (await host.page.evaluate(() => window.chatHost.log.toolCalls)).map((/** @type {any} */ c) => c.name),
    );
    assert.deepEqual([...called].sort(), ['answer-finding', 'get-review-view', 'open-location', 'reveal-review']);
  });

  it('follows the host’s light and dark themes, at 4.5:1 contrast in both', async () => {
    for (const theme of ['light', 'dark']) {
      await host.page.evaluate((t) => window.chatHost.setTheme(t), theme);
      await frame.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
      await frame.evaluate(AXE_SOURCE);
      const violations = await frame.evaluate(async () => {
        const results = await /** @type {any} */ (window).axe.run(document, { runOnly: ['color-contrast'] });
        return results.violations.flatMap((/** @type {any} */ v) =>
          v.nodes.map((/** @type {any} */ n) => `${n.target.join(' ')}: ${n.any?.[0]?.message ?? ''}`),
        );
      });
      assert.deepEqual(violations, [], `contrast in the ${theme} theme`);
      if (theme === 'dark')
        await host.page.locator('#view').screenshot({ path: join(ARTIFACTS_DIR, 'e2e-ui-63-chat-view-dark.png') });
    }
    await host.page.evaluate(() => window.chatHost.setTheme('light'));
  });

  it('a hostile review stays text: nothing runs, no link or frame appears, no tool is called, and it renders in its time', async () => {
    const s = session();
    const callsBefore = (await host.page.evaluate(() => window.chatHost.log.toolCalls)).length;
    await host.page.evaluate(
      ([content, title]) => window.chatHost.callAndShow('present-review', { content, title }),
      [hostileReview(), HOSTILE_TITLE],
    );
    frame = await host.viewFrame();
    await frame.locator('#status[data-state="connected"]').waitFor({ timeout: 30_000 });
    const shown = await frame.locator('li.finding').count();
    const measured = (await renders(frame)).filter((r) => r.findings === shown);
    assert.ok(shown >= 1000, `the view lists the findings the window keeps (${shown})`);
    assert.ok(measured.length > 0, 'the view measured its render');
    s.figures[`chat view: ${shown} findings rendered`] = `${Math.round(measured.at(-1).ms)} ms`;
    const inside = await frame.evaluate(() => ({
      scripts: document.scripts.length,
      active: document.querySelectorAll('a, img, iframe, object, embed, form, [onerror], [onclick]').length,
      title: document.getElementById('title')?.textContent,
      first: document.querySelector('li.finding .title')?.textContent,
    }));
    assert.deepEqual(inside, {
      scripts: 1,
      active: 0,
      title: HOSTILE_TITLE,
      first: '<script>window.top.alert(1)</script> at src/example.ts:30 [click](javascript:alert(1))',
    });
    // Nothing ran: no dialog, no error, no call but the view reading the review.
    assert.deepEqual(host.dialogs, []);
    assert.deepEqual(host.pageErrors, []);
    const calls = (await host.page.evaluate(() => window.chatHost.log.toolCalls)).slice(callsBefore);
    assert.ok(
      calls.length > 0 && calls.every((/** @type {any} */ c) => c.name === 'get-review-view'),
      JSON.stringify(calls),
    );
    // A control through the same path: a click does reach the host, so the silence above means something.
    await frame.locator('li.finding').first().locator('.place').click();
    await waitFor(
      async () => (await host.page.evaluate(() => window.chatHost.log.toolCalls)).at(-1)?.name === 'open-location',
      "the place's click to reach the host",
    );
    assert.deepEqual(await host.page.evaluate(() => window.chatHost.log.refused), []);
  });
});
