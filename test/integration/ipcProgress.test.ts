// Progress over the socket, both ends real: a handler's reports reach the IpcClient's caller after
// the request's own bytes have left, only when the caller asked, and never after the reply; and a
// window (here a stand-in that knows the token) that sends progress the client cannot use is ignored.

import { createNonce, serverProof } from '../../shared/authProof';
import { encodeLine } from '../../shared/framing';
import { Logger } from '../../shared/logger';
import { LARGE_REVIEW_BYTES, PROTOCOL_VERSION } from '../../shared/protocol';
import { createToken } from '../../extension/src/ipc/token';
import { WINDOW_PROGRESS_INTERVAL_MS } from '../../extension/src/ipc/requestRunner';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import type { BridgeProgress } from '../../mcp-server/src/pendingRequests';
import { until } from '../support/until';
import { FakeListener, presented, startBridge, tempSocketPath, type Bridge } from './ipcKit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('progress over the socket', () => {
  let bridge: Bridge;
  afterEach(async () => bridge?.stop());

  it("carries the request's bytes leaving, then the handler's steps, and nothing once it has answered", async () => {
    bridge = await startBridge({
      handlers: {
        'present-review': async (params, context) => {
          context.progress({ progress: 0, total: 3, message: 'received' }, { newStep: true });
          await sleep(30);
          context.progress({ progress: 1, total: 3, message: 'rendering' }, { newStep: true });
          await sleep(30);
          context.progress({ progress: 2, total: 3, message: 'stored' }, { newStep: true });
          // Held for its slot when the reply goes: dropped.
          context.progress({ progress: 3, total: 3, message: 'after' });
          return presented(params.content);
        },
      },
    });
    const client = bridge.client();
    const seen: BridgeProgress[] = [];
    const content = 'x'.repeat(LARGE_REVIEW_BYTES * 3);
    await client.request('present-review', { content }, { onProgress: (update) => seen.push(update) });
    const count = seen.length;
    // The dropped update would have gone when its slot came, within an interval of the reply: a
    // timer set now fires after that one, and the reply to a later request follows what it sent.
    await sleep(WINDOW_PROGRESS_INTERVAL_MS);
    await client.request('get-review', {});
    expect(seen).toHaveLength(count);

    const sending = seen.filter((u): u is Extract<BridgeProgress, { stage: 'sending' }> => u.stage === 'sending');
    expect(sending.length).toBeGreaterThanOrEqual(3);
    expect(sending.at(-1)).toMatchObject({ sentBytes: sending[0].totalBytes });
    expect(seen.filter((u) => u.stage === 'window')).toEqual([
      { stage: 'window', progress: 0, total: 3, message: 'received' },
      { stage: 'window', progress: 1, total: 3, message: 'rendering' },
      { stage: 'window', progress: 2, total: 3, message: 'stored' },
    ]);
    // Every byte had left before the window said anything.
    expect(seen.findIndex((u) => u.stage === 'window')).toBeGreaterThan(seen.lastIndexOf(sending.at(-1)!));
  });
});

describe('progress a client cannot use', () => {
  it('is ignored: for an unknown id, malformed, or after the reply; the call still gets its answer', async () => {
    const { socketPath } = tempSocketPath();
    const token = createToken();
    let clientNonce = '';
    const fake = await FakeListener.start(socketPath, (line, socket) => {
      const message = JSON.parse(line);
      if (message.type === 'hello') {
        clientNonce = message.clientNonce;
        const serverNonce = createNonce();
        socket.write(
          encodeLine({
            type: 'response',
            id: message.id,
            result: {
              protocolVersion: PROTOCOL_VERSION,
              serverNonce,
              serverProof: serverProof(token, clientNonce, serverNonce),
            },
          }),
        );
      } else if (message.type === 'auth') {
        socket.write(
          encodeLine({
            type: 'response',
            id: message.id,
            result: { protocolVersion: PROTOCOL_VERSION, server: { name: 'redline', version: 't', pid: 1 } },
          }),
        );
      } else if (message.type === 'request') {
        expect(message.progress).toBe(true);
        socket.write(
          [
            encodeLine({ type: 'progress', id: 'someone-else', progress: 1, total: 2, message: 'not yours' }),
            encodeLine({ type: 'progress', id: message.id, progress: -1, message: 'negative' }),
            encodeLine({ type: 'progress', id: message.id, progress: 1, total: 2 }),
            encodeLine({ type: 'progress', id: message.id, progress: 1, total: 2, message: 'm'.repeat(10_000) }),
            encodeLine({ type: 'progress', id: message.id, progress: 1, total: 2, message: 'half way' }),
            encodeLine({ type: 'response', id: message.id, result: presented('') }),
            encodeLine({ type: 'progress', id: message.id, progress: 2, total: 2, message: 'too late' }),
            // Read after all of the above: once the client has it, it has handled them.
            encodeLine({ type: 'event', event: 'selection-changed', payload: {} }),
          ].join(''),
        );
      }
    });
    const logs: string[] = [];
    const client = new IpcClient({
      socketPath,
      token,
      clientInfo: { name: 'test', version: '1' },
      retryDelaysMs: [],
      log: new Logger({ write: ({ message }) => void logs.push(message) }, 'bridge'),
    });
    let lastLineRead = false;
    const listening = client.onEvent(() => (lastLineRead = true));
    try {
      const windowSaid: string[] = [];
      const result = await client.request(
        'present-review',
        { content: '' },
        {
          onProgress: (update) => {
            if (update.stage === 'window') windowSaid.push(update.message);
          },
        },
      );
      expect(result.revision).toBe(1);
      await until(() => lastLineRead, 'the client to read what the window sent after its reply');
      expect(windowSaid).toEqual(['half way']);
      expect(logs.filter((event) => event === 'invalid-reply')).toHaveLength(3);
    } finally {
      listening.dispose();
      await client.dispose();
      await fake.stop();
    }
  });
});
