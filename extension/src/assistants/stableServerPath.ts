// A server path for every assistant's config that survives updates: ~/.redline/mcp-server.js, a
// small launcher that `require`s the newest installed Redline's dist/mcp-server.js. The versioned
// path inside the extension folder changes with every release; this one never does. Plain
// TypeScript with no `vscode` import, so it is tested with a temporary home directory.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import SemVer from 'semver/classes/semver';
import { replaceFileSync } from '../../../shared/atomicFile';
import type { Logger } from '../../../shared/logger';
import { ensurePrivateDirectory } from '../../../shared/privateDirectory';
import { yieldThread } from '../../../shared/threadYield';
import { REDLINE_VERSION } from '../../../shared/version';
import { serverScriptPath } from './serverLaunch';

export const LAUNCHER_DIRECTORY = '.redline';
export const LAUNCHER_FILE = 'mcp-server.js';

/** The header line that records which server the launcher runs, read back at the next activation. */
const HEADER_PREFIX = '// redline-launcher ';

export interface LauncherRecord {
  readonly version: string;
  /** The absolute path of an installed Redline's dist/mcp-server.js. */
  readonly target: string;
}

export type LauncherUpdate =
  | { readonly kind: 'written'; readonly file: string; readonly replaced?: LauncherRecord }
  | { readonly kind: 'current'; readonly file: string }
  /** A newer Redline (another editor's, or an update not yet loaded here) wrote it, and its server is still there. */
  | { readonly kind: 'kept-newer'; readonly file: string; readonly recorded: LauncherRecord };

export function stableServerPath(home: string = os.homedir()): string {
  return path.join(home, LAUNCHER_DIRECTORY, LAUNCHER_FILE);
}

/**
 * Points the launcher at `serverPath` unless it already runs a newer Redline whose server still
 * exists. Every editor with Redline calls this at activation, so the newest installation wins and
 * an uninstalled one is replaced by the next that starts. Throws on a file-system failure.
 */
export function updateStableServerPath(
  serverPath: string,
  version: string,
  home: string = os.homedir(),
): LauncherUpdate {
  const file = stableServerPath(home);
  ensurePrivateDirectory(path.dirname(file));
  const existing = readLauncher(file);
  const recorded = existing === undefined ? undefined : parseLauncher(existing);
  const mine: LauncherRecord = { version, target: path.resolve(serverPath) };
  const wanted = launcherSource(mine);
  if (existing === wanted) return { kind: 'current', file };
  if (recorded && compareVersions(version, recorded.version) < 0 && fs.existsSync(recorded.target)) {
    return { kind: 'kept-newer', file, recorded };
  }
  // Crash-safe: an assistant starting at that moment runs the old launcher or the new one, never half of one.
  replaceFileSync(file, wanted, { mode: 0o644 });
  return { kind: 'written', file, ...(recorded ? { replaced: recorded } : {}) };
}

/**
 * For activation: points the launcher at this installation's server (dist/mcp-server.js under
 * `extensionPath`), logs what happened and never throws, since a missing launcher only costs the
 * stable path ("Connect an Assistant" then names this version's path).
 */
export async function publishStableServerPath(
  extensionPath: string,
  log: Logger,
  { version = REDLINE_VERSION, home }: { readonly version?: string; readonly home?: string } = {},
): Promise<void> {
  try {
    // After activation has returned: nothing else waits for these few small file operations.
    await yieldThread();
    const update = updateStableServerPath(serverScriptPath(extensionPath), version, home);
    if (update.kind === 'written') log.info(`${update.file} now runs Redline ${version}'s server`);
    if (update.kind === 'kept-newer')
      log.info(`${update.file} keeps running Redline ${update.recorded.version}, newer than this ${version}`);
  } catch (error) {
    log.warn(
      'Could not write the launcher that gives assistants a stable server path; "Connect an Assistant" falls back to this version\'s path',
      { error },
    );
  }
}

/** The launcher's record, or undefined for a file Redline did not write (or an older format). */
export function parseLauncher(source: string): LauncherRecord | undefined {
  const header = source.split('\n').find((line) => line.startsWith(HEADER_PREFIX));
  if (!header) return undefined;
  try {
    const value = JSON.parse(header.slice(HEADER_PREFIX.length)) as Partial<LauncherRecord>;
    if (typeof value.version !== 'string' || typeof value.target !== 'string') return undefined;
    // Either platform's absolute form: the target is only compared, looked for and shown, never resolved.
    if (!path.posix.isAbsolute(value.target) && !path.win32.isAbsolute(value.target)) return undefined;
    return { version: value.version, target: value.target };
  } catch {
    return undefined;
  }
}

/** Reads the launcher's record from disk; undefined when there is none Redline wrote. */
export function readLauncherRecord(home: string = os.homedir()): LauncherRecord | undefined {
  const source = readLauncher(stableServerPath(home));
  return source === undefined ? undefined : parseLauncher(source);
}

/**
 * The launcher itself. `require` of the absolute path runs the server exactly as `node <path>` would:
 * the entry finds its own parts through its `__filename`, and `process.argv` (with `--workspace`)
 * is passed through untouched. A missing server gets one clear line on stderr, never a stack trace.
 */
export function launcherSource(record: LauncherRecord): string {
  const target = JSON.stringify(record.target);
  return [
    '#!/usr/bin/env node',
    "// Redline's MCP server at a path that survives updates: it runs the newest installed Redline's server.",
    '// Written by the Redline extension each time it starts; edits here are overwritten.',
    `${HEADER_PREFIX}${JSON.stringify(record)}`,
    "'use strict';",
    `const target = ${target};`,
    "if (!require('fs').existsSync(target)) {",
    '  process.stderr.write(',
    '    `Redline: the MCP server this launcher runs is gone (${target}); Redline was probably updated or uninstalled.\\n` +',
    '      `Open VS Code (or Cursor, or any editor with the Redline extension) once: Redline rewrites ${__filename} to point at the installed version. Then restart your assistant.\\n`,',
    '  );',
    '  process.exitCode = 1;',
    '} else {',
    '  require(target);',
    '}',
    '',
  ].join('\n');
}

/**
 * Orders versions as semver does (0.10.0 > 0.9.2, rc.10 > rc.9, a pre-release before its release).
 * A version semver cannot read ("1.0", garbage in a hand-edited launcher) sorts before every one it
 * can, so that a launcher recording one is replaced by the next installed Redline that starts.
 */
export function compareVersions(a: string, b: string): number {
  const [versionA, versionB] = [readVersion(a), readVersion(b)];
  if (versionA && versionB) return versionA.compare(versionB);
  return Number(versionA !== undefined) - Number(versionB !== undefined);
}

function readVersion(version: string): SemVer | undefined {
  try {
    return new SemVer(version);
  } catch {
    return undefined;
  }
}

function readLauncher(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The path config snippets and files should name: the launcher when it is there and runs an
 * installed server, else this version's own server (which then changes with every update).
 */
export function serverPathForConfigs(
  versionedServerPath: string,
  home: string = os.homedir(),
): { readonly serverPath: string; readonly stable: boolean } {
  try {
    const record = readLauncherRecord(home);
    if (record && fs.existsSync(record.target)) return { serverPath: stableServerPath(home), stable: true };
  } catch {
    // An unreadable launcher is as good as none.
  }
  return { serverPath: versionedServerPath, stable: false };
}
