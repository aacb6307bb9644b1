// Two assistants in one window, each through its own built MCP server: each gets its own review,
// findings and feedback, and all of it is where it was after the window restarts.

import * as fs from 'fs';
import * as path from 'path';
import { AssistantReviews } from '../../extension/src/review/assistantReviews';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { assertBuilt, callTool, connectMcp, hostEnv, startHost, type Host, type ToolName } from './harness';
import { silentLogger } from '../../shared/logger';
import { findingsAttacher } from '../support/findingsAttacher';
import type { FeedbackItem, Finding } from '../../shared/protocol';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;

describe('several assistants in one window', () => {
  let host: Host;
  let claude: Mcp;
  let codex: Mcp;
  const call = <N extends ToolName>(mcp: Mcp, name: N, args: Record<string, unknown> = {}) =>
    callTool(mcp.client, name, args);

  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ durable: true });
    claude = await connectMcp(hostEnv(host), host.workspace, 'claude-code');
    codex = await connectMcp(hostEnv(host), host.workspace, 'codex');
  });
  afterAll(async () => {
    await claude?.close();
    await codex?.close();
    await host?.stop();
  });

  it("gives each assistant its own review: presenting does not replace the other's", async () => {
    const fromClaude = await call(claude, 'present-review', {
      content: '# Claude\n\n- **bug**: src/example.ts:42 loops',
      title: 'Claude',
    });
    const fromCodex = await call(codex, 'present-review', {
      content: '# Codex\n\n- nit: src/example.ts:10 naming',
      title: 'Codex',
    });
    expect([fromClaude.isError, fromCodex.isError]).toEqual([undefined, undefined]);
    // Each counts its own revisions.
    expect([fromClaude.structuredContent!.revision, fromCodex.structuredContent!.revision]).toEqual([1, 1]);

    const claudeReview = (await call(claude, 'get-review')).structuredContent!;
    const codexReview = (await call(codex, 'get-review')).structuredContent!;
    expect(claudeReview.markdown).toMatch(/^# Claude/);
    expect(claudeReview.findings.map((f: Finding) => f.severity)).toEqual(['bug']);
    expect(codexReview.markdown).toMatch(/^# Codex/);
    expect(codexReview.findings.map((f: Finding) => f.severity)).toEqual(['nit']);

    expect(host.reviews.all.map((review) => [review.label, review.store.current?.title])).toEqual([
      ['claude-code', 'Claude'],
      ['codex', 'Codex'],
    ]);
    // The review presented last is the one shown.
    expect(host.reviews.active.label).toBe('codex');
  });

  it("answers the feedback tools for the caller's review only", async () => {
    const codexStart = (await call(codex, 'get-review-feedback')).structuredContent!.cursor;
    const waiting = call(codex, 'await-review-feedback', { timeoutSeconds: 30 });
    const [claudeBug] = (await call(claude, 'get-review')).structuredContent!.findings;
    // Feedback on Claude's review wakes Codex's wait, which finds nothing of its own and waits on.
    await host.reviews.all[0].conversation.add({
      kind: 'state',
      findingId: claudeBug.id,
      state: 'resolved',
      reference: claudeBug.reference,
    });
    const claudeItems = (await call(claude, 'get-review-feedback')).structuredContent!.items;
    expect(claudeItems.map((item: FeedbackItem) => [item.kind, item.state])).toEqual([['state', 'resolved']]);
    expect((await call(codex, 'get-review-feedback', { since: codexStart })).structuredContent!.items).toEqual([]);

    await host.reviews.all[1].conversation.add({ kind: 'message', text: 'Codex, rename it.' });
    const woken = (await waiting).structuredContent!;
    expect(woken.timedOut).toBe(false);
    expect(woken.items.map((item: FeedbackItem) => item.text)).toEqual(['Codex, rename it.']);
  });

  it('keeps both reviews, their feedback and which folder is whose across a restart', async () => {
    await Promise.all(host.reviews.all.map((review) => review.store.flush()));
    await Promise.all(host.reviews.all.map((review) => review.conversation.flushed()));
    const storage = path.join(host.workspace, '..', 'storage');
    const list = JSON.parse(fs.readFileSync(path.join(storage, 'assistants.json'), 'utf8'));
    expect(list.assistants.map((entry: { name: string }) => entry.name)).toEqual(['claude-code', 'codex']);
    // The first assistant keeps the folders a window with one assistant always had.
    expect(list.assistants[0].dir).toBe('');
    expect(list.assistants[1].dir).toMatch(/^assistants\/codex-[0-9a-f]{12}$/);

    const renderer = new ReviewRenderer(() => [host.workspace]);
    const reopened = await AssistantReviews.open({
      root: storage,
      historySize: 5,
      log: silentLogger,
      renderer,
      attachFindings: findingsAttacher(renderer),
    });
    try {
      expect(
        reopened.all.map((review) => [
          review.name,
          review.store.current?.title,
          review.conversation.since(undefined).items.length,
        ]),
      ).toEqual([
        ['claude-code', 'Claude', 1],
        ['codex', 'Codex', 1],
      ]);
      expect(reopened.active.name).toBe('codex');
    } finally {
      await reopened.dispose();
    }
  });

  it('reads nothing for an assistant that never presented, and makes it no review', async () => {
    const gemini = await connectMcp(hostEnv(host), host.workspace, 'gemini');
    try {
      const review = (await call(gemini, 'get-review')).structuredContent!;
      expect(review).toMatchObject({ revision: 0, markdown: '', findings: [] });
      expect((await call(gemini, 'get-review-feedback')).structuredContent).toMatchObject({ cursor: '0', items: [] });
      expect(host.reviews.all).toHaveLength(2);
    } finally {
      await gemini.close();
    }
  });
});
