// A request line of megabytes (a 10 MiB present-review) is decoded and parsed off the window's
// thread, so that another assistant's call is not kept waiting behind it; what the same peer sends
// after it is still handled after it.

import { ErrorCode } from '../../shared/protocol';
import { OFF_THREAD_LINE_BYTES } from '../../extension/src/ipc/lineParser';
import { startBridge, type Bridge } from './ipcKit';
import { RawPeer } from './rawPeer';

describe('large request lines', () => {
  let bridge: Bridge | undefined;
  afterEach(async () => {
    await bridge?.stop();
    bridge = undefined;
    jest.restoreAllMocks();
  });

  it('are parsed off this thread, with the same result, and a cancel sent right behind one applies to it', async () => {
    const received: string[] = [];
    bridge = await startBridge({
      handlers: {
        'present-review': (params, context) =>
          new Promise((_resolve, reject) => {
            received.push(params.content);
            context.signal.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      },
    });
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    const parse = jest.spyOn(JSON, 'parse');
    const content = `# Review\n\n${'é€😀 src/a.ts:1\n'.repeat(OFF_THREAD_LINE_BYTES / 16)}`;
    // One write: the request and its cancel arrive together, the cancel behind the large line.
    const request = { type: 'request', id: 'large', method: 'present-review', params: { content, mode: 'replace' } };
    peer.sendRaw(`${JSON.stringify(request)}\n${JSON.stringify({ type: 'cancel', id: 'large' })}\n`);
    const reply = await peer.reply('large');
    expect(reply.error?.code).toBe(ErrorCode.Cancelled);
    expect(received).toEqual([content]);
    const parsedHere = parse.mock.calls.filter(
      ([text]) => typeof text === 'string' && text.length >= OFF_THREAD_LINE_BYTES / 4,
    );
    expect(parsedHere).toEqual([]);
    peer.destroy();
  });

  it('a large line that is not JSON is answered as such, and the connection goes on', async () => {
    bridge = await startBridge();
    const peer = await RawPeer.connect(bridge.socketPath);
    await peer.hello(bridge.token);
    peer.sendRaw(`{"type":"request","id":"x","params":"${'a'.repeat(OFF_THREAD_LINE_BYTES)}\n`);
    expect((await peer.reply(null)).error?.code).toBe(ErrorCode.ParseError);
    peer.send({ type: 'request', id: 'after', method: 'get-review', params: {} });
    expect((await peer.reply('after')).result).toMatchObject({ revision: 0 });
    peer.destroy();
  });
});
