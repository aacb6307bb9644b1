// Findings and the user's answers, end to end: SDK client → built MCP server → socket → the
// window's handlers, with the real store, renderer, anchors and conversation behind them.

import * as fs from 'fs';
import * as path from 'path';
import { Conversation } from '../../extension/src/review/conversation';
import { PROGRESS_MS } from '../../mcp-server/src/feedbackWait';
import { until } from '../support/until';
import { durableSession } from './harness';
import { silentLogger } from '../../shared/logger';
import type { FeedbackItem, Finding } from '../../shared/protocol';

const REVIEW = [
  '# Review',
  '',
  '- **bug**: the handler at src/example.ts:42-43 never stops',
  '- nit: naming at src/example.ts:10',
  '- plain note without a reference',
].join('\n');

describe('findings and feedback', () => {
  const session = durableSession();
  const call = session.call;
  /** The MCP server's get-review-feedback requests the window has answered, from its log. */
  const feedbackReads = () =>
    session.stderr().match(/"event":"reply","id":"[^"]+","method":"get-review-feedback"/g)?.length ?? 0;
  /** Resolves once the MCP server has read the feedback after `before` reads: the wait is now on the window's event. */
  const waitingAfter = (before: number, reads = 1) =>
    until(() => feedbackReads() >= before + reads, 'await-review-feedback to read the feedback and wait');
  const example = () => path.join(session.host.workspace, 'src/example.ts');

  it('present-review lists the findings with severity, place and state, and names its assistant', async () => {
    const result = await call('present-review', { content: REVIEW });
    expect(result.isError).toBeFalsy();
    const findings = result.structuredContent!.findings;
    expect(
      findings.map((f: Finding) => [f.severity, f.reference, f.file, f.line, f.endLine, f.state, f.stale]),
    ).toEqual([
      ['bug', 'src/example.ts:42-43', example(), 42, 43, 'open', false],
      ['nit', 'src/example.ts:10', example(), 10, 10, 'open', false],
    ]);
    expect(findings[0].title).toBe('the handler at src/example.ts:42-43 never stops');
    expect(result.content[0].text).toContain(`${findings[0].id} bug at ${example()}:42-43`);
    // The SDK client's clientInfo name is the author of the findings.
    expect(session.host.store.current?.assistant).toBe('redline-test');
  });

  it('get-review says where the code is now: three lines typed above move a finding down three', async () => {
    const original = fs.readFileSync(example(), 'utf8');
    try {
      fs.writeFileSync(example(), `// one\n// two\n// three\n${original}`);
      const { structuredContent } = await call('get-review');
      expect(structuredContent!.findings.map((f: Finding) => [f.line, f.endLine, f.stale])).toEqual([
        [45, 46, false],
        [13, 13, false],
      ]);
      // The three lines gone again and the first finding's line rewritten: it cannot be found, says
      // so, and stays where it was last seen; the other follows its code back.
      fs.writeFileSync(example(), original.replace('export const line42 = 42;', 'export const renamed = 42;'));
      const after = (await call('get-review')).structuredContent!.findings;
      expect(after.map((f: Finding) => [f.line, f.stale])).toEqual([
        [45, true],
        [10, false],
      ]);
      expect((await call('get-review')).content[0].text).toContain('[code changed]');
    } finally {
      fs.writeFileSync(example(), original);
    }
    expect((await call('get-review')).structuredContent!.findings.map((f: Finding) => f.stale)).toEqual([false, false]);
  });

  it('get-review-feedback returns what the user said, in order, once per cursor', async () => {
    const [bug, nit] = (await call('get-review')).structuredContent!.findings;
    const start = (await call('get-review-feedback')).structuredContent!.cursor;
    await session.host.conversation.add({
      kind: 'state',
      findingId: bug.id,
      state: 'resolved',
      reference: bug.reference,
    });
    await session.host.conversation.add({
      kind: 'reply',
      findingId: nit.id,
      text: 'I prefer the short name.',
      reference: nit.reference,
    });
    await session.host.conversation.add({ kind: 'message', text: 'Also look at the tests.' });
    const first = (await call('get-review-feedback', { since: start })).structuredContent!;
    expect(first.items.map((i: FeedbackItem) => [i.kind, i.findingId, i.state ?? i.text])).toEqual([
      ['state', bug.id, 'resolved'],
      ['reply', nit.id, 'I prefer the short name.'],
      ['message', undefined, 'Also look at the tests.'],
    ]);
    expect((await call('get-review-feedback', { since: first.cursor })).structuredContent!.items).toEqual([]);
    // The state shows in get-review too.
    expect((await call('get-review')).structuredContent!.findings.map((f: Finding) => f.state)).toEqual([
      'resolved',
      'open',
    ]);
    const bad = await call('get-review-feedback', { since: 'yesterday' });
    expect(bad.isError).toBe(true);
  });

  it('await-review-feedback returns as soon as the user answers', async () => {
    const cursor = (await call('get-review-feedback')).structuredContent!.cursor;
    const [, nit] = (await call('get-review')).structuredContent!.findings;
    const before = feedbackReads();
    const started = Date.now();
    const waiting = call('await-review-feedback', { since: cursor, timeoutSeconds: 60 });
    await waitingAfter(before);
    await session.host.conversation.add({
      kind: 'state',
      findingId: nit.id,
      state: 'wont-fix',
      reference: nit.reference,
    });
    const result = await waiting;
    // Woken by the window's event: the re-check comes PROGRESS_MS after the wait's first read, which
    // was after `started`, so an answer before then cannot be the re-check's.
    expect(Date.now() - started).toBeLessThan(PROGRESS_MS);
    expect(result.structuredContent!.timedOut).toBe(false);
    expect(result.structuredContent!.items.map((i: FeedbackItem) => [i.kind, i.state])).toEqual([
      ['state', 'wont-fix'],
    ]);
    expect(result.content[0].text).toContain('marked the finding on src/example.ts:10');
  });

  it('await-review-feedback times out with timedOut, and without since waits only for what is new', async () => {
    const result = await call('await-review-feedback', { timeoutSeconds: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ timedOut: true, items: [] });
  });

  it('a cancelled await-review-feedback stops, and the next call works', async () => {
    const controller = new AbortController();
    const before = feedbackReads();
    const waiting = session.client.callTool(
      { name: 'await-review-feedback', arguments: { timeoutSeconds: 600 } },
      { signal: controller.signal },
    );
    // Without since, it reads the newest cursor first, then the feedback after it.
    await waitingAfter(before, 2);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    expect((await call('get-review-feedback')).isError).toBeFalsy();
  });

  it('keeps states and feedback across a restart of the window', async () => {
    const {
      nextSteps,
      window: _window,
      ...before
    } = (await call('get-review-feedback', { since: '0' })).structuredContent!;
    expect(nextSteps).toEqual([`Pass "${before.cursor}" as "since" next time to get only newer items.`]);
    await session.host.conversation.flushed();
    const reopened = await Conversation.open(
      path.join(session.host.workspace, '..', 'storage', 'conversation'),
      silentLogger,
    );
    expect(reopened.since('0')).toEqual(before);
    const [bug] = (await call('get-review')).structuredContent!.findings;
    expect(reopened.stateOf(bug.id)).toBe('resolved');
  });
});
