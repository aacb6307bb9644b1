// The tools the review's view in a chat calls, end to end: an SDK client that declares the MCP Apps
// extension, the built MCP server, the socket, and the window's store, findings and conversation.
// An answer given in the view is the same conversation's: get-review-feedback reads it, with the
// source "chat". A client that renders no views cannot call them at all.

import { assertBuilt, connectMcp, hostEnv, startHost, type Host } from './harness';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../../mcp-server/src/appView/uiExtension';
import type { AnswerFindingResult, FeedbackItem, GetReviewViewResult } from '../../shared/protocol';
import { MAX_FEEDBACK_TEXT } from '../../shared/protocol';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;
type Result<T> = { isError?: boolean; structuredContent?: T; content: Array<{ type: string; text: string }> };

const REVIEW = [
  '# Chat review',
  '',
  '- **bug**: the handler at src/example.ts:42-43 never stops',
  '  because the loop has no exit,',
  '  and the timer is never cleared.',
  '- nit: naming at src/example.ts:10',
  '- <script>alert(1)</script> at src/example.ts:20',
  '  [here](javascript:alert(1)) @someone <img src=x onerror=alert(1)>',
].join('\n');

describe("the review's view in a chat: its tools, through the window", () => {
  let host: Host;
  let chat: Mcp;
  let plain: Mcp;
  const call = <T>(mcp: Mcp, name: string, args: Record<string, unknown> = {}) =>
    mcp.client.callTool({ name, arguments: args }) as Promise<Result<T>>;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ durable: true });
    const ui = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };
    chat = await connectMcp(hostEnv(host), host.workspace, 'redline-test', [], 'auto', ui);
    // The same assistant in a terminal that renders no views.
    plain = await connectMcp(hostEnv(host), host.workspace, 'redline-test', [], 'legacy');
  });
  afterAll(async () => {
    await chat?.close();
    await plain?.close();
    await host?.stop();
  });

  it('get-review-view lists the findings with their place, state, first lines and the counts by severity', async () => {
    const presented = await call<{ revision: number }>(chat, 'present-review', { content: REVIEW, title: 'In chat' });
    expect(presented.isError).toBeFalsy();
    const view = await call<GetReviewViewResult>(chat, 'get-review-view');
    expect(view.isError).toBeFalsy();
    const { revision, title, counts, findings } = view.structuredContent!;
    expect([revision, title]).toEqual([presented.structuredContent!.revision, 'In chat']);
    expect(counts).toMatchObject({ bug: 1, nit: 1, none: 1, blocking: 0 });
    expect(findings.map((f) => [f.severity, f.line, f.endLine, f.state, f.stale, f.replies])).toEqual([
      ['bug', 42, 43, 'open', false, 0],
      ['nit', 10, 10, 'open', false, 0],
      [null, 20, 20, 'open', false, 0],
    ]);
    // Its lines after the title, without the list's marks, as text: the view sets it as text, never as markup.
    expect(findings[0].excerpt).toBe('because the loop has no exit,\nand the timer is never cleared.');
    expect(findings[1].excerpt).toBeUndefined();
    expect(findings[2].excerpt).toBe('[here](javascript:alert(1)) @someone <img src=x onerror=alert(1)>');
  });

  it('Resolve and a reply from the view are the conversation\'s, with the source "chat", and the threads\' state', async () => {
    const [bug] = (await call<GetReviewViewResult>(chat, 'get-review-view')).structuredContent!.findings;
    const resolved = await call<AnswerFindingResult>(chat, 'answer-finding', { findingId: bug.id, state: 'resolved' });
    expect(resolved.isError).toBeFalsy();
    expect(resolved.structuredContent).toMatchObject({ findingId: bug.id, state: 'resolved' });
    const replied = await call<AnswerFindingResult>(chat, 'answer-finding', {
      findingId: bug.id,
      reply: ' Fixed it. ',
    });
    expect(replied.structuredContent!.items).toMatchObject([{ kind: 'reply', text: 'Fixed it.', source: 'chat' }]);
    // The same state again records nothing.
    const again = await call<AnswerFindingResult>(chat, 'answer-finding', { findingId: bug.id, state: 'resolved' });
    expect(again.structuredContent!.items).toEqual([]);

    // The assistant, in the terminal that renders no views, reads what the user answered in the chat.
    const feedback = await call<{ items: FeedbackItem[] }>(plain, 'get-review-feedback');
    expect(feedback.structuredContent!.items).toMatchObject([
      { kind: 'state', findingId: bug.id, state: 'resolved', reference: 'src/example.ts:42-43', source: 'chat' },
      { kind: 'reply', findingId: bug.id, text: 'Fixed it.', source: 'chat' },
    ]);
    const owner = host.reviews.lookup('redline-test')!;
    expect(owner.conversation.stateOf(bug.id)).toBe('resolved');
    const listed = (await call<GetReviewViewResult>(chat, 'get-review-view')).structuredContent!.findings[0];
    expect([listed.state, listed.replies]).toEqual(['resolved', 1]);
  });

  it("Won't fix, then Reopen", async () => {
    const [, nit] = (await call<GetReviewViewResult>(chat, 'get-review-view')).structuredContent!.findings;
    for (const state of ['wont-fix', 'open'] as const) {
      const answer = await call<AnswerFindingResult>(chat, 'answer-finding', { findingId: nit.id, state });
      expect(answer.structuredContent).toMatchObject({ state, items: [{ kind: 'state', state, source: 'chat' }] });
    }
  });

  it('refuses what the view cannot have meant: no such finding, nothing to record, a state it does not offer, a reply too long', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ findingId: 'f-none', state: 'resolved' }, /has no finding "f-none".*get-review-view/],
      [{ findingId: 'f-none' }, /needs "state" or a "reply"/],
      [{ findingId: 'f-none', reply: '   ' }, /needs "state" or a "reply"/],
      [{ findingId: 'f-none', state: 'accepted' }, /state/],
      [{ findingId: 'f-none', reply: 'x'.repeat(MAX_FEEDBACK_TEXT + 1) }, /reply/],
      [{ findingId: 'x'.repeat(201), state: 'resolved' }, /findingId/],
    ];
    for (const [args, reason] of cases) {
      const result = await call(chat, 'answer-finding', args);
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(reason);
    }
  });

  it('reveal-review asks the window to show the review, at a finding', async () => {
    const [bug] = (await call<GetReviewViewResult>(chat, 'get-review-view')).structuredContent!.findings;
    const shown = await call<{ shown: boolean }>(chat, 'reveal-review', { findingId: bug.id });
    expect(shown.structuredContent).toMatchObject({ shown: true });
    expect(host.editor.revealed.at(-1)).toEqual({ assistant: 'redline-test', findingId: bug.id });
  });

  it('a client that renders no views can call none of these tools', async () => {
    for (const name of ['get-review-view', 'answer-finding', 'reveal-review']) {
      await expect(call(plain, name, { findingId: 'f1', state: 'resolved' })).rejects.toThrow(`Tool ${name} not found`);
    }
  });
});
