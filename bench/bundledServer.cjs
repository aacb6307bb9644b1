// The yardstick for bench/coldStart.mjs: the same server as one bundle, without the handshake
// responder. It is Redline's own full server (the SDK, zod and the tools), the very esbuild bundle
// the build makes of it, dist/mcp-server-full.js, started the ordinary way: it reads stdin from
// the first byte and answers the handshake itself. So the comparison shows what the entry in
// front of it (dist/mcp-server.js) buys, and nothing else. Node's compile cache stays off, as it
// would be for a server that is a single file: Node compiles that before any of its code runs.

'use strict';

const { startFullServer } = require('../dist/mcp-server-full.js');

const nothingRead = { replay: Buffer.alloc(0), answeredInitialize: undefined, rest: Buffer.alloc(0) };
const server = startFullServer(nothingRead);
server.connected.catch((error) => {
  process.stderr.write(`${error}\n`);
  process.exit(1);
});
process.stdin.on('end', () => void server.close().finally(() => process.exit(0)));
