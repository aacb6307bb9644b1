// The windows Redline publishes (shared/discovery.ts writes their files), for scripts that must find
// a window as the MCP server does without being one: npm start's presenter and the README pictures.
// Reads only; a file that is not JSON, or whose process is gone, is skipped.
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from './processes.mjs';

/**
 * @typedef {object} WindowRecord
 * @property {number} pid        the window's extension host
 * @property {string[]} folders
 * @property {string} socketPath
 * @property {string} token
 * @property {number} started    when the host started (ms since the epoch)
 * @property {string} file
 */

/**
 * Where the extension may have put its private directory, as shared/privateDirectory.ts names them.
 * @param {NodeJS.ProcessEnv} [env] @returns {string[]}
 */
export function discoveryDirectories(env = process.env) {
  if (env.REDLINE_RUNTIME_DIR) return [env.REDLINE_RUNTIME_DIR];
  const uid = process.getuid?.() ?? 0;
  return [
    ...(env.XDG_RUNTIME_DIR ? [join(env.XDG_RUNTIME_DIR, 'redline')] : []),
    join(tmpdir(), `redline-${uid}`),
    `/tmp/redline-${uid}`,
  ];
}

/**
 * The live windows that have `folder` open, newest host first.
 * @param {string} folder @param {NodeJS.ProcessEnv} [env] @returns {WindowRecord[]}
 */
export function windowsOn(folder, env = process.env) {
  /** @type {Map<string, WindowRecord>} */
  const found = new Map();
  for (const directory of discoveryDirectories(env)) {
    for (const name of readdirOr(directory)) {
      if (!/^window-\d+-[0-9a-f]+\.json$/.test(name)) continue;
      const file = join(directory, name);
      try {
        const record = { ...JSON.parse(readFileSync(file, 'utf8')), file };
        if (Array.isArray(record.folders) && record.folders.includes(folder) && isAlive(record.pid))
          found.set(record.socketPath, record);
      } catch {
        // Being written, or not Redline's: the next look sees it whole.
      }
    }
  }
  return [...found.values()].sort((a, b) => b.started - a.started);
}

/** @param {string} directory @returns {string[]} */
function readdirOr(directory) {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
