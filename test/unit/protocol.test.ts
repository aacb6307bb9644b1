import {
  Challenge,
  FeedbackItem,
  Finding,
  GetReviewFeedbackParams,
  ClientMessage,
  GetReviewResult,
  HelloResult,
  OpenLocationParams,
  PresentReviewResult,
  MAX_REVIEW_BYTES,
  PresentReviewParams,
  ResponseMessage,
  ServerMessage,
  methodNames,
  methods,
  ImportReviewParams,
  MAX_FEEDBACK_TEXT,
  MAX_FINDINGS,
  MAX_IMPORTED_REPLIES,
} from '../../shared/protocol';
import { MAX_FEEDBACK_ITEMS } from '../../extension/src/review/conversation';

describe('protocol schemas', () => {
  it('accepts each kind of client message', () => {
    const hello = {
      type: 'hello',
      id: 'a',
      clientNonce: 'ab'.repeat(32),
      protocolVersion: 2,
      client: { name: 'x', version: '1', pid: 1 },
    };
    expect(ClientMessage.safeParse(hello).success).toBe(true);
    expect(ClientMessage.safeParse({ type: 'auth', id: 'b', clientProof: '0f'.repeat(32) }).success).toBe(true);
    expect(ClientMessage.safeParse({ type: 'request', id: 'b', method: 'get-review', params: {} }).success).toBe(true);
    expect(ClientMessage.safeParse({ type: 'cancel', id: 'b' }).success).toBe(true);
  });

  it.each([
    ['not an object', 42],
    ['null', null],
    ['unknown type', { type: 'launch', id: 'x' }],
    ['missing id', { type: 'request', method: 'get-review' }],
    ['empty id', { type: 'request', id: '', method: 'get-review' }],
    ['numeric id', { type: 'request', id: 7, method: 'get-review' }],
    ['huge id', { type: 'request', id: 'x'.repeat(65), method: 'get-review' }],
    [
      'hello without a nonce',
      { type: 'hello', id: 'a', protocolVersion: 2, client: { name: 'x', version: '1', pid: 1 } },
    ],
    [
      'hello with a short nonce',
      { type: 'hello', id: 'a', clientNonce: 'ab', protocolVersion: 2, client: { name: 'x', version: '1', pid: 1 } },
    ],
    ['auth with a proof that is not hex', { type: 'auth', id: 'a', clientProof: 'z'.repeat(64) }],
    ['auth without a proof', { type: 'auth', id: 'a' }],
    ['method not a string', { type: 'request', id: 'a', method: ['get-review'] }],
  ])('refuses %s', (_name, message) => {
    expect(ClientMessage.safeParse(message).success).toBe(false);
  });

  it('fills the default mode and requires a section for update-section', () => {
    expect(PresentReviewParams.parse({ content: '# x' }).mode).toBe('replace');
    const missing = PresentReviewParams.safeParse({ content: 'x', mode: 'update-section' });
    expect(missing.success).toBe(false);
    expect(PresentReviewParams.safeParse({ content: 'x', mode: 'update-section', section: 'Findings' }).success).toBe(
      true,
    );
    expect(PresentReviewParams.safeParse({ content: 'x', mode: 'overwrite' }).success).toBe(false);
  });

  it('measures the size limit in UTF-8 bytes', () => {
    expect(PresentReviewParams.safeParse({ content: 'a'.repeat(MAX_REVIEW_BYTES) }).success).toBe(true);
    expect(PresentReviewParams.safeParse({ content: 'a'.repeat(MAX_REVIEW_BYTES + 1) }).success).toBe(false);
    // 'é' is two bytes: half as many characters already reach the limit.
    expect(PresentReviewParams.safeParse({ content: 'é'.repeat(MAX_REVIEW_BYTES / 2 + 1) }).success).toBe(false);
  });

  it('tells results from errors, and events from responses', () => {
    expect(ResponseMessage.safeParse({ type: 'response', id: 'a', result: { ok: 1 } }).success).toBe(true);
    expect(ResponseMessage.safeParse({ type: 'response', id: null, error: { code: 1, message: 'm' } }).success).toBe(
      true,
    );
    expect(ResponseMessage.safeParse({ type: 'response', id: null, result: 1 }).success).toBe(false);
    expect(
      ResponseMessage.safeParse({ type: 'response', id: 'a', result: 1, error: { code: 1, message: 'm' } }).success,
    ).toBe(false);
    expect(ServerMessage.safeParse({ type: 'event', event: 'review-changed', payload: { revision: 2 } }).success).toBe(
      true,
    );
  });

  it('lists the seventeen methods, each with a timeout', () => {
    expect(methodNames.sort()).toEqual([
      'answer-finding',
      'export-review',
      'find-workspace-files',
      'get-diagnostics',
      'get-earlier-review',
      'get-review',
      'get-review-feedback',
      'get-review-view',
      'get-selection',
      'get-workspace-folders',
      'import-review',
      'list-git-refs',
      'list-open-editors',
      'list-review-history',
      'open-location',
      'present-review',
      'reveal-review',
    ]);
    for (const name of methodNames) expect(methods[name].timeoutMs).toBeGreaterThan(0);
  });

  it('takes no params for the methods that need none, and refuses extra ones', () => {
    for (const name of [
      'get-selection',
      'get-review',
      'get-diagnostics',
      'list-open-editors',
      'get-workspace-folders',
    ] as const) {
      expect(methods[name].params.safeParse({}).success).toBe(true);
      expect(methods[name].params.safeParse({ path: '/etc/passwd' }).success).toBe(false);
    }
    expect(OpenLocationParams.safeParse({ reference: '' }).success).toBe(false);
    expect(OpenLocationParams.safeParse({ reference: 'src/a.ts:1' }).success).toBe(true);
  });

  it('bounds the strings beside the review, so that the frame limit can cover a whole request', () => {
    expect(
      PresentReviewParams.safeParse({ content: 'x', mode: 'update-section', section: 's'.repeat(1001) }).success,
    ).toBe(false);
    expect(PresentReviewParams.safeParse({ content: 'x', cwd: '/'.repeat(4097) }).success).toBe(false);
    expect(PresentReviewParams.safeParse({ content: 'x', title: 't'.repeat(501) }).success).toBe(false);
  });

  it("holds an import, its markdown and replies together, to the review's limit and to what a conversation keeps", () => {
    const finding = (replies: number, text = 'ok') => ({
      fingerprint: 'f',
      file: 'src/a.ts',
      line: 1,
      endLine: 1,
      markdownLine: 1,
      state: 'open',
      replies: Array.from({ length: replies }, () => ({ text, at: '2026-01-01T00:00:00.000Z' })),
    });
    expect(ImportReviewParams.safeParse({ markdown: '- bug: src/a.ts:1', findings: [finding(2)] }).success).toBe(true);
    expect(ImportReviewParams.safeParse({ markdown: ' \n', findings: [] }).success).toBe(false);
    expect(
      ImportReviewParams.safeParse({
        markdown: 'x',
        findings: Array.from({ length: MAX_FINDINGS + 1 }, () => finding(0)),
      }).success,
    ).toBe(false);
    expect(
      ImportReviewParams.safeParse({ markdown: 'x', findings: [finding(1000), finding(1000), finding(1)] }).success,
    ).toBe(false);
    // Each reply within its own limit, but the whole past the review's: the frame limit would not cover it.
    const long = 'r'.repeat(MAX_FEEDBACK_TEXT);
    const markdown = 'm'.repeat(MAX_REVIEW_BYTES - 10 * MAX_FEEDBACK_TEXT - 'src/a.ts'.length);
    expect(ImportReviewParams.safeParse({ markdown, findings: [finding(10, long)] }).success).toBe(true);
    expect(ImportReviewParams.safeParse({ markdown: `${markdown}m`, findings: [finding(10, long)] }).success).toBe(
      false,
    );
    expect(MAX_IMPORTED_REPLIES).toBe(MAX_FEEDBACK_ITEMS);
  });

  it('checks the shape of results: a present-review without a reference report, or a review with a negative revision, is refused', () => {
    const report = { total: 1, resolved: 1, broken: [] };
    expect(
      PresentReviewResult.safeParse({ revision: 1, sections: [], sectionCount: 0, references: report, findings: [] })
        .success,
    ).toBe(true);
    expect(PresentReviewResult.safeParse({ revision: 1, sections: [], sectionCount: 0, findings: [] }).success).toBe(
      false,
    );
    expect(
      PresentReviewResult.safeParse({ revision: 1, sections: [], sectionCount: 0, references: report }).success,
    ).toBe(false);
    expect(
      PresentReviewResult.safeParse({ revision: 0, sections: [], sectionCount: 0, references: report, findings: [] })
        .success,
    ).toBe(false);
    expect(GetReviewResult.safeParse({ revision: 0, markdown: '', sections: [], findings: [] }).success).toBe(true);
    expect(GetReviewResult.safeParse({ revision: -1, markdown: '', sections: [], findings: [] }).success).toBe(false);
  });

  it('checks findings and feedback: states and kinds from their lists, cursors of digits only', () => {
    const finding = {
      id: 'f-abc',
      severity: 'bug',
      title: 't',
      reference: 'a.ts:1',
      file: '/w/a.ts',
      line: 1,
      endLine: 2,
      state: 'open',
      stale: false,
    };
    expect(Finding.safeParse(finding).success).toBe(true);
    expect(Finding.safeParse({ ...finding, severity: null }).success).toBe(true);
    expect(Finding.safeParse({ ...finding, severity: 'fatal' }).success).toBe(false);
    expect(Finding.safeParse({ ...finding, state: 'closed' }).success).toBe(false);
    expect(
      FeedbackItem.safeParse({ id: '3', kind: 'state', findingId: 'f-abc', state: 'wont-fix', at: 'now' }).success,
    ).toBe(true);
    expect(FeedbackItem.safeParse({ id: '3', kind: 'vote', at: 'now' }).success).toBe(false);
    expect(GetReviewFeedbackParams.safeParse({ since: '12' }).success).toBe(true);
    expect(GetReviewFeedbackParams.safeParse({ since: '-1' }).success).toBe(false);
    expect(GetReviewFeedbackParams.safeParse({ since: '1e9' }).success).toBe(false);
    expect(GetReviewFeedbackParams.safeParse({ other: 1 }).success).toBe(false);
  });

  it('tells a challenge from the final hello result', () => {
    const challenge = { protocolVersion: 2, serverNonce: 'ab'.repeat(32), serverProof: 'cd'.repeat(32) };
    expect(Challenge.safeParse(challenge).success).toBe(true);
    expect(HelloResult.safeParse(challenge).success).toBe(false);
    expect(
      HelloResult.safeParse({ protocolVersion: 2, server: { name: 'redline', version: '1', pid: 1 } }).success,
    ).toBe(true);
  });
});
