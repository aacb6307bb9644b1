// What the full server answers to the handshake, found by asking it. scripts/build.mjs runs this
// each time it bundles the full server and writes the answers to dist/mcp-server-handshake.json,
// which the entry answers from (see handshake.ts), so the tools' zod schemas stay the one source
// of the JSON Schemas a client sees; test/unit/mcpToolSchemas.test.ts checks that the built
// server still publishes exactly these.

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { PublishedHandshake } from './handshake';
import { createServer } from './server';
import { unreachableBridge } from './tools/toolContext';

/** A protocol version no server supports, for the answer to a client that asks for one. */
const UNSUPPORTED_VERSION = '1970-01-01';

export async function captureHandshake(): Promise<PublishedHandshake> {
  const server = createServer({
    bridge: unreachableBridge('The handshake capture has no VS Code to talk to.'),
    cwd: process.cwd(),
  });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<RequestId, (reply: JSONRPCMessage) => void>();
  client.onmessage = (message) => {
    if ('id' in message && message.id !== undefined) waiting.get(message.id)?.(message);
  };
  await server.connect(serverSide);
  await client.start();

  let nextId = 0;
  const ask = async (method: string, params?: Record<string, unknown>): Promise<object> => {
    const id = ++nextId;
    const reply = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
    await client.send({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    const message = await reply;
    if (!('result' in message)) throw new Error(`The server refused ${method} at build time: ${JSON.stringify(message)}`);
    return message.result;
  };
  const initialize = (protocolVersion: string) =>
    ask('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'redline-build', version: '0' } });

  try {
    const published: PublishedHandshake = {
      initialize: Object.fromEntries(
        await Promise.all(SUPPORTED_PROTOCOL_VERSIONS.map(async (version) => [version, await initialize(version)] as const)),
      ),
      initializeOtherwise: await initialize(UNSUPPORTED_VERSION),
      toolsList: await ask('tools/list'),
    };
    return published;
  } finally {
    await server.close();
  }
}
