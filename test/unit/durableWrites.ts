// Watches what a write does on the file system, for the tests that a file is replaced crash-safely:
// which paths were fsynced and which renamed, in order, through fs's synchronous calls and its
// promise API alike. Also the file handles' prototype, for a disk whose writes come up short.

import type { Mode, OpenMode, PathLike } from 'fs';
import type { FileHandle } from 'fs/promises';
import * as os from 'os';
import * as path from 'path';

// The module object itself, not a copy of its members: the spies must replace what the code under test calls.
const fs = jest.requireActual<typeof import('fs')>('fs');

export type FileEvent =
  | { readonly kind: 'fsync'; readonly path: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string };

/** Records fsyncs and renames until `stop()`; the spies are removed then. */
export async function watchFileEvents(): Promise<{ readonly events: FileEvent[]; stop(): void }> {
  const events: FileEvent[] = [];
  const fdPaths = new Map<number, string>();
  const handlePaths = new WeakMap<object, string>();
  const prototype = await fileHandlePrototype();
  const openSync = fs.openSync;
  const open = fs.promises.open;
  const fsyncSync = fs.fsyncSync;
  const sync = prototype.sync;
  const renameSync = fs.renameSync;
  const rename = fs.promises.rename;
  const spies = [
    jest.spyOn(fs, 'openSync').mockImplementation(((file: PathLike, flags?: OpenMode, mode?: Mode) => {
      const fd = openSync(file, flags ?? 'r', mode);
      fdPaths.set(fd, path.resolve(String(file)));
      return fd;
    }) as typeof fs.openSync),
    jest.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
      fsyncSync(fd);
      events.push({ kind: 'fsync', path: fdPaths.get(fd) ?? `fd ${fd}` });
    }),
    jest.spyOn(fs, 'renameSync').mockImplementation((from: PathLike, to: PathLike) => {
      renameSync(from, to);
      events.push({ kind: 'rename', from: path.resolve(String(from)), to: path.resolve(String(to)) });
    }),
    jest.spyOn(fs.promises, 'open').mockImplementation((async (
      file: PathLike,
      flags?: string | number,
      mode?: Mode,
    ) => {
      const handle = await open(file, flags, mode);
      handlePaths.set(handle, path.resolve(String(file)));
      return handle;
    }) as typeof fs.promises.open),
    jest.spyOn(prototype, 'sync').mockImplementation(async function (this: FileHandle) {
      await sync.call(this);
      events.push({ kind: 'fsync', path: handlePaths.get(this) ?? `fd ${this.fd}` });
    }),
    jest.spyOn(fs.promises, 'rename').mockImplementation(async (from: PathLike, to: PathLike) => {
      await rename(from, to);
      events.push({ kind: 'rename', from: path.resolve(String(from)), to: path.resolve(String(to)) });
    }),
  ];
  return { events, stop: () => spies.forEach((spy) => spy.mockRestore()) };
}

/**
 * Checks that `target` was replaced crash-safely: a file beside it fsynced, then renamed onto it,
 * then its directory fsynced.
 */
export function expectDurablyReplaced(events: readonly FileEvent[], target: string): void {
  const resolved = path.resolve(target);
  const renamed = events.findIndex((event) => event.kind === 'rename' && event.to === resolved);
  expect(renamed).toBeGreaterThanOrEqual(0);
  const { from } = events[renamed] as Extract<FileEvent, { kind: 'rename' }>;
  expect(path.dirname(from)).toBe(path.dirname(resolved));
  const fileSynced = events.findIndex((event) => event.kind === 'fsync' && event.path === from);
  expect({ fileSynced: fileSynced >= 0 && fileSynced < renamed }).toEqual({ fileSynced: true });
  const directorySynced = events.findIndex(
    (event, at) => at > renamed && event.kind === 'fsync' && event.path === path.dirname(resolved),
  );
  expect({ directorySyncedAfter: directorySynced > renamed || process.platform === 'win32' }).toEqual({
    directorySyncedAfter: true,
  });
}

/** The prototype every `fs.promises` file handle shares, for a spy on its methods. */
export async function fileHandlePrototype(): Promise<FileHandle> {
  const probe = await fs.promises.open(os.devNull, 'r');
  await probe.close();
  return Object.getPrototypeOf(probe) as FileHandle;
}

/**
 * Makes every file handle's write take at most `limit()` bytes a call, as write(2) may on a full
 * disk or after a signal; `restore()` ends it.
 */
export async function shortWrites(limit: () => number): Promise<{ restore(): void }> {
  const prototype = await fileHandlePrototype();
  const write = prototype.write as (...args: unknown[]) => Promise<{ bytesWritten: number }>;
  const spy = jest.spyOn(prototype, 'write' as never).mockImplementation(function (
    this: FileHandle,
    data: Buffer | string,
    offset?: number,
    length?: number,
  ) {
    const buffer = typeof data === 'string' ? Buffer.from(data) : data;
    const from = typeof data === 'string' ? 0 : (offset ?? 0);
    const wanted = typeof data === 'string' ? buffer.length : (length ?? buffer.length - from);
    return write.call(this, buffer, from, Math.min(limit(), wanted), null);
  } as never);
  return { restore: () => spy.mockRestore() };
}
