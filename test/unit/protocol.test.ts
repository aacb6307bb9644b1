import {
  ClientMessage,
  MAX_REVIEW_BYTES,
  PresentReviewParams,
  ResponseMessage,
  ServerMessage,
  methodNames,
  methods,
} from '../../shared/protocol';

describe('protocol schemas', () => {
  it('accepts each kind of client message', () => {
    const hello = { type: 'hello', id: 'a', token: 't', protocolVersion: 1, client: { name: 'x', version: '1', pid: 1 } };
    expect(ClientMessage.safeParse(hello).success).toBe(true);
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
    ['hello without token', { type: 'hello', id: 'a', protocolVersion: 1, client: { name: 'x', version: '1', pid: 1 } }],
    ['method not a string', { type: 'request', id: 'a', method: ['get-review'] }],
  ])('refuses %s', (_name, message) => {
    expect(ClientMessage.safeParse(message).success).toBe(false);
  });

  it('fills the default mode and requires a section for update-section', () => {
    expect(PresentReviewParams.parse({ content: '# x' }).mode).toBe('replace');
    const missing = PresentReviewParams.safeParse({ content: 'x', mode: 'update-section' });
    expect(missing.success).toBe(false);
    expect(PresentReviewParams.safeParse({ content: 'x', mode: 'update-section', section: 'Findings' }).success).toBe(true);
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
    expect(ResponseMessage.safeParse({ type: 'response', id: null, error: { code: 1, message: 'm' } }).success).toBe(true);
    expect(ResponseMessage.safeParse({ type: 'response', id: null, result: 1 }).success).toBe(false);
    expect(ResponseMessage.safeParse({ type: 'response', id: 'a', result: 1, error: { code: 1, message: 'm' } }).success).toBe(false);
    expect(ServerMessage.safeParse({ type: 'event', event: 'review-changed', payload: { revision: 2 } }).success).toBe(true);
  });

  it('gives every method a params schema, a result schema and a timeout', () => {
    expect(methodNames.sort()).toEqual(['get-review', 'get-selection', 'open-location', 'present-review']);
    for (const name of methodNames) {
      expect(methods[name].timeoutMs).toBeGreaterThan(0);
      expect(typeof methods[name].params.safeParse).toBe('function');
      expect(typeof methods[name].result.safeParse).toBe('function');
    }
  });
});
