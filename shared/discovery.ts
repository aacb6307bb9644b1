// Discovery files: each VS Code window's host publishes one in the private directory, so that an
// MCP server started anywhere (a terminal outside VS Code, an agent that starts its servers itself)
// can find the window of its project without any variable or token in its config. Both ends use
// this module: the extension writes, the MCP server reads. A file is trusted no further than its
// directory (0700, this user's) and its own checks: everything in it is validated on read.

import * as fs from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { replaceFileSync } from './atomicFile';
import { isOwnProcessAlive } from './privateDirectory';

export { WORKSPACE_ENV } from './environment';

export const DISCOVERY_VERSION = 1;

const MAX_FOLDERS = 256;
const MAX_PATH_CHARS = 4096;
const MAX_TERMINALS = 1024;
const MAX_EDITOR_CHARS = 200;

const AbsolutePath = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .refine((p) => !p.includes('\0'));
const Pid = z.int().positive();

/** What a window publishes; everything in a file is checked against it on read. */
export const WindowRecord = z
  .object({
    version: z.literal(DISCOVERY_VERSION),
    /** The extension host's process: the file is ignored once it has exited. */
    pid: Pid,
    /** The window's workspace folders, absolute paths on this machine. */
    folders: z.array(AbsolutePath).max(MAX_FOLDERS).readonly(),
    socketPath: AbsolutePath,
    token: z.string().regex(/^[0-9a-f]{32}$/),
    /** `vscode.env.appName`: Visual Studio Code, Cursor, code-server… */
    editor: z.string().max(MAX_EDITOR_CHARS),
    /** When the window last had focus (ms since the epoch); ties between windows go to the latest. */
    lastFocused: z.number(),
    /** When this host started (ms since the epoch): of two hosts that claim a terminal, the later one is its window's. */
    started: z.number(),
    /**
     * The shell processes of the window's integrated terminals. An MCP server started in one of
     * them belongs to this window, whatever its working directory, even while an older host of the
     * same window (one that lingers after a reload) still listens at the path the terminal was given.
     */
    terminals: z.array(Pid).max(MAX_TERMINALS).readonly(),
  })
  .readonly();
export type WindowRecord = z.infer<typeof WindowRecord>;

/** A record with the file it came from. */
export interface DiscoveredWindow extends WindowRecord {
  readonly file: string;
}

const FILE_PATTERN = /^window-(\d+)-[0-9a-f]{8,32}\.json$/;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES = 256;

export function discoveryFileName(pid: number, key: string): string {
  return `window-${pid}-${key}.json`;
}

/** Writes `record` as `file`, 0600, crash-safely: a reader sees the old file or the new one, never half. */
export function writeDiscoveryFile(file: string, record: WindowRecord): void {
  replaceFileSync(file, JSON.stringify(record), { mode: 0o600, exactMode: true });
}

export function removeDiscoveryFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * The live windows published in `directories`. Files of processes that have exited are removed;
 * files that are not ours, not private, too large or malformed are skipped and left alone.
 */
export function readDiscoveryFiles(
  directories: readonly string[],
  uid: number | undefined = process.getuid?.(),
): DiscoveredWindow[] {
  const windows: DiscoveredWindow[] = [];
  for (const directory of directories) {
    let names: string[];
    try {
      names = fs
        .readdirSync(directory)
        .filter((name) => FILE_PATTERN.test(name))
        .slice(0, MAX_FILES);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(directory, name);
      const pid = Number(FILE_PATTERN.exec(name)![1]);
      if (!isOwnProcessAlive(pid)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      const record = readRecord(file, uid);
      if (record && record.pid === pid && socketIsBeside(record.socketPath, directory))
        windows.push({ ...record, file });
    }
  }
  return windows;
}

/**
 * A window's socket is in the private directory its record is in (a named pipe of Redline's on
 * Windows). A record that points anywhere else would send the token's proof, and then the review,
 * to a socket that someone else may have made.
 */
function socketIsBeside(socketPath: string, directory: string): boolean {
  if (process.platform === 'win32') return /^\\\\\.\\pipe\\redline-[0-9a-f]+-\d+$/i.test(socketPath);
  try {
    return fs.realpathSync(path.dirname(path.resolve(socketPath))) === fs.realpathSync(directory);
  } catch {
    return false;
  }
}

function readRecord(file: string, uid: number | undefined): WindowRecord | undefined {
  try {
    const stat = fs.lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    if (process.platform !== 'win32' && ((uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0))
      return undefined;
    return parseWindowRecord(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** The record in `value`, or undefined when any field is missing, of the wrong type or out of bounds. */
export function parseWindowRecord(value: unknown): WindowRecord | undefined {
  const parsed = WindowRecord.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
