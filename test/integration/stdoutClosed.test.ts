// The built server when the client closes its end of stdout: whether the server is still answering
// the opening itself (index.ts) or the full server's transport answers, the next write's EPIPE ends
// the server cleanly, neither an unhandled 'error' (exit 1, a stack trace) nor a process left behind.

import { BuiltServer } from './builtServer';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const pings = (from: number) => Array.from({ length: 8 }, (_, i) => ({ jsonrpc: '2.0', id: from + i, method: 'ping' }));

it('while it answers the opening: exits 0, with no unhandled error', async () => {
  const server = new BuiltServer();
  server.send(initialize);
  await server.waitForReplies(1);
  server.closeOutput();
  server.send(initialized, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, ...pings(3));
  expect(await server.exited).toBe(0);
  expect(server.stderr).not.toMatch(/Unhandled 'error' event|EPIPE\n\s+at /);
  expect(server.stderr).toMatch(/"event":"shutdown".*stdout failed \(EPIPE\)/);
});

it('once the full server answers: exits 0, with no unhandled error', async () => {
  const server = new BuiltServer();
  server.send(
    initialize,
    initialized,
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  );
  await server.waitForReplies(3);
  server.closeOutput();
  server.send(...pings(4));
  expect(await server.exited).toBe(0);
  expect(server.stderr).not.toMatch(/Unhandled 'error' event|EPIPE\n\s+at /);
  expect(server.stderr).toMatch(/"event":"shutdown".*stdout failed \(EPIPE\)/);
});
