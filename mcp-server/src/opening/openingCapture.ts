// What the full server answers to a client's opening, found by asking it over in-memory streams.
// scripts/build.mjs writes the answers to dist/mcp-server-opening.json, which the entry answers
// from (openingResponder.ts), so the tools' zod schemas stay the one source of what a client sees.

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { once } from 'events';
import { PassThrough } from 'stream';
import { silentLogger } from '../../../shared/logger';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../appView/uiExtension';
import { createServer } from '../server';
import { LineStdioTransport } from '../stdioTransport';
import { unreachableBridge } from '../tools/toolContext';
import { LIST_METHODS, MODERN_REVISION } from './openingMessages';
import type { OpeningAnswers, PublishedOpening } from './openingResponder';

/** A protocol version no server supports, for the answer to a client that asks for one. */
const UNSUPPORTED_VERSION = '1970-01-01';
const CLIENT_INFO = { name: 'redline-build', version: '0' };
/** What a client that renders MCP Apps declares (appView/uiExtension.ts). */
const UI_CAPABILITIES = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };

const envelope = (clientCapabilities: object) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
});

/** Sends `requests` (ids 1, 2, …) on a connection of its own; resolves with each result, in order. */
async function ask(requests: ReadonlyArray<{ method: string; params?: object }>): Promise<object[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const bridge = unreachableBridge('The build has no VS Code to talk to.');
  const served = serveStdio(({ era }) => createServer({ bridge, cwd: process.cwd(), log: silentLogger }, era), {
    transport: new LineStdioTransport(stdin, stdout),
  });
  const results: object[] = [];
  let buffered = '';
  try {
    for (const [index, request] of requests.entries()) {
      stdin.write(JSON.stringify({ jsonrpc: '2.0', id: index + 1, ...request }) + '\n');
      while (!buffered.includes('\n')) buffered += String((await once(stdout, 'data'))[0]);
      const newline = buffered.indexOf('\n');
      const reply = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (reply.id !== index + 1 || !('result' in reply))
        throw new Error(`The server refused ${request.method} at build time: ${JSON.stringify(reply)}`);
      results.push(reply.result);
    }
    return results;
  } finally {
    await served.close();
  }
}

const initialize = (protocolVersion: string, capabilities: object) => ({
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: CLIENT_INFO },
});

export async function captureOpening(): Promise<PublishedOpening> {
  return { ...(await captureAnswers({})), withUi: await captureAnswers(UI_CAPABILITIES) };
}

/** The answers to a client that declares `capabilities`. */
async function captureAnswers(capabilities: object): Promise<OpeningAnswers> {
  const versions = [...SUPPORTED_PROTOCOL_VERSIONS, UNSUPPORTED_VERSION];
  const initialized = await Promise.all(
    versions.map(async (version) => (await ask([initialize(version, capabilities)]))[0]),
  );
  const legacy = await ask([
    initialize(SUPPORTED_PROTOCOL_VERSIONS[0], capabilities),
    ...LIST_METHODS.map((method) => ({ method })),
  ]);
  const modernMethods = ['server/discover', ...LIST_METHODS] as const;
  const modern = await ask(modernMethods.map((method) => ({ method, params: { _meta: envelope(capabilities) } })));
  return {
    initialize: Object.fromEntries(SUPPORTED_PROTOCOL_VERSIONS.map((version, i) => [version, initialized[i]])),
    initializeOtherwise: initialized[versions.length - 1],
    legacy: Object.fromEntries(LIST_METHODS.map((method, i) => [method, legacy[i + 1]])) as PublishedOpening['legacy'],
    modern: Object.fromEntries(modernMethods.map((method, i) => [method, modern[i]])) as PublishedOpening['modern'],
  };
}
