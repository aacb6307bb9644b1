// The two files scripts/build.mjs writes beside dist/mcp-server.js for the entry (index.ts): the
// handshake replies captured from the full server, and the full server's own bundle. They are
// found through the entry's own directory (__dirname in the bundle), never the working directory,
// so that the server starts the same from any folder and through ~/.redline/mcp-server.js, which
// `require`s the entry by its absolute path (extension/src/assistants/stableServerPath.ts).

import * as path from 'path';
import { enableOwnCompileCache } from './compileCache';
import type * as FullServer from './fullServer';
import type { PublishedHandshake } from './handshake';

/** The names scripts/build.mjs gives them in dist/. */
export const HANDSHAKE_FILE = 'mcp-server-handshake.json';
export const FULL_SERVER_FILE = 'mcp-server-full.js';

/** The full server's replies to the handshake: read at every start, before the first reply. */
export function loadPublishedHandshake(): PublishedHandshake {
  return require(path.join(__dirname, HANDSHAKE_FILE)) as PublishedHandshake;
}

/**
 * The full server (SDK, zod and the tools), loaded only once it is needed. As a plain file loaded
 * by `require`, it is what Node's compile cache covers: from Node 22.1 on, a start after the first
 * reads its compiled code from disk instead of compiling it again (compileCache.ts says where).
 */
export function loadFullServer(): typeof FullServer {
  enableOwnCompileCache();
  return require(path.join(__dirname, FULL_SERVER_FILE)) as typeof FullServer;
}
