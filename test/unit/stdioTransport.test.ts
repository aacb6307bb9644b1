// The MCP server's stdio transport when the client closes its end of stdout: the output is a real
// pipe into a child process that is killed. A send waiting for 'drain' settles, later sends settle
// at once, the EPIPE is reported (not thrown), and the transport closes.

import { spawn } from 'child_process';
import { once } from 'events';
import { PassThrough } from 'stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { LineStdioTransport } from '../../mcp-server/src/stdioTransport';
import { settlement, until } from '../support/until';

const notification = (text: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: text },
});

it('settles every send once the reader of stdout is gone, reports the EPIPE once, and closes', async () => {
  // A client that never reads what the server writes, until it is killed.
  const client = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const errors: Error[] = [];
  let closed = 0;
  const transport = new LineStdioTransport(new PassThrough(), client.stdin!);
  transport.onerror = (error) => errors.push(error);
  transport.onclose = () => closed++;
  await transport.start();

  // Larger than any pipe's buffer: the send waits for 'drain'.
  const waiting = settlement(transport.send(notification('x'.repeat(4 * 1024 * 1024))));
  expect(waiting.settled).toBe(false);
  client.kill('SIGKILL');
  await once(client, 'exit');

  await until(() => waiting.settled && closed > 0, 'the waiting send to settle and the transport to close');
  expect(waiting).toEqual({ settled: true });
  const later = [
    settlement(transport.send(notification('after'))),
    settlement(transport.send(notification('and again'))),
  ];
  await until(() => later.every((send) => send.settled), 'the later sends to settle');
  expect(later).toEqual([{ settled: true }, { settled: true }]);
  expect(closed).toBe(1);
  expect(errors.map((error) => error.message)).toEqual([
    expect.stringMatching(/stdout failed \((write )?EPIPE.*client has closed its end/),
  ]);
});

it('a send after the transport closed resolves without writing', async () => {
  const output = new PassThrough();
  const transport = new LineStdioTransport(new PassThrough(), output);
  await transport.start();
  await transport.close();
  await transport.send(notification('nobody listens'));
  expect(output.read()).toBeNull();
});
