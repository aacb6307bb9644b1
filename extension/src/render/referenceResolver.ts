// Finds the real file behind a review's file reference, so the panel can mark broken links and the
// assistant can be told which references are wrong. Synchronous and cached: one instance per render.

import * as fs from 'fs';
import * as path from 'path';
import type { FileReference } from '../../../shared/links';

export type Resolution =
  /** lineCount is 0 for a folder, and Infinity for a file too large to count (its lines are taken on trust). */
  | { status: 'resolved'; absolutePath: string; lineCount: number; clamped?: boolean }
  | { status: 'broken'; reason: string };

/** Counting the lines of a bigger file would stall the render; its line numbers are taken on trust. */
const MAX_COUNTED_BYTES = 50 * 1024 * 1024;
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;
/** How many search folders a "no file" message names before summarising the rest. */
const ROOTS_NAMED = 3;

type FileFacts =
  | { kind: 'file'; lineCount: number }
  | { kind: 'folder' }
  | { kind: 'missing' }
  | { kind: 'unreadable'; why: string };

interface Located {
  absolutePath: string;
  facts: FileFacts;
}

export class ReferenceResolver {
  private readonly roots: string[];
  private readonly factsByPath = new Map<string, FileFacts>();
  private readonly locatedByReference = new Map<string, Located | undefined>();

  /** roots in search order: the assistant's cwd first, then the workspace folders. */
  constructor(roots: readonly string[]) {
    this.roots = [...new Set(roots.filter((root) => root !== ''))];
  }

  resolve(ref: FileReference): Resolution {
    const located = this.locate(ref.path);
    if (located === undefined) return { status: 'broken', reason: this.describeMissing(ref.path) };
    const { absolutePath, facts } = located;
    switch (facts.kind) {
      case 'missing':
        return { status: 'broken', reason: this.describeMissing(ref.path) };
      case 'unreadable':
        return { status: 'broken', reason: `cannot read ${ref.path}: ${facts.why}` };
      case 'folder':
        return ref.line === undefined
          ? { status: 'resolved', absolutePath, lineCount: 0 }
          : { status: 'broken', reason: `${ref.path} is a folder, not a file` };
      case 'file':
        return checkLines(ref, absolutePath, facts.lineCount);
    }
  }

  private locate(referencePath: string): Located | undefined {
    if (this.locatedByReference.has(referencePath)) return this.locatedByReference.get(referencePath);
    const located = this.search(referencePath);
    this.locatedByReference.set(referencePath, located);
    return located;
  }

  private search(referencePath: string): Located | undefined {
    const isWindows = process.platform === 'win32';
    if (path.win32.isAbsolute(referencePath) && !path.posix.isAbsolute(referencePath) && !isWindows) {
      // `C:\src\a.ts` cannot exist here, and must not be joined onto a root as if it were relative.
      return undefined;
    }
    if (path.isAbsolute(referencePath)) {
      const absolutePath = path.resolve(referencePath);
      return { absolutePath, facts: this.factsAbout(absolutePath) };
    }
    // An assistant on Windows writes `src\a.ts`; elsewhere a backslash in a file name is vanishingly rare.
    const relative = isWindows ? referencePath : referencePath.replace(/\\/g, '/');
    let unreadable: Located | undefined;
    for (const root of this.roots) {
      const absolutePath = path.resolve(root, relative);
      const facts = this.factsAbout(absolutePath);
      if (facts.kind === 'file' || facts.kind === 'folder') return { absolutePath, facts };
      // A root we may not read does not end the search; its error is the answer only if no root has the file.
      if (facts.kind === 'unreadable') unreadable ??= { absolutePath, facts };
    }
    return unreadable;
  }

  private factsAbout(absolutePath: string): FileFacts {
    let facts = this.factsByPath.get(absolutePath);
    if (facts === undefined) {
      facts = readFacts(absolutePath);
      this.factsByPath.set(absolutePath, facts);
    }
    return facts;
  }

  private describeMissing(referencePath: string): string {
    if (path.isAbsolute(referencePath) || path.win32.isAbsolute(referencePath)) return `no file ${referencePath}`;
    if (this.roots.length === 0) return `no file ${referencePath}: there is no working folder or workspace folder to look in`;
    const named = this.roots.slice(0, ROOTS_NAMED);
    const others = this.roots.length - named.length;
    const places = others > 0 ? [...named, `${others} other folder${others === 1 ? '' : 's'}`] : named;
    const list = places.length === 1 ? places[0] : `${places.slice(0, -1).join(', ')} or ${places[places.length - 1]}`;
    return `no file ${referencePath} in ${list}`;
  }
}

function checkLines(ref: FileReference, absolutePath: string, lineCount: number): Resolution {
  // An empty file still opens at line 1, so line 1 is never past the end.
  if (ref.line !== undefined && ref.line > Math.max(lineCount, 1)) {
    const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
    return { status: 'broken', reason: `line ${ref.line} is past the end of ${ref.path} (${lines})` };
  }
  // A range that starts in the file but runs off its end still shows the right place.
  if (ref.endLine !== undefined && ref.endLine > Math.max(lineCount, 1)) {
    return { status: 'resolved', absolutePath, lineCount, clamped: true };
  }
  return { status: 'resolved', absolutePath, lineCount };
}

/** Never throws: every failure becomes "missing" or "unreadable" with a reason a person can act on. */
function readFacts(absolutePath: string): FileFacts {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.statSync(absolutePath, { throwIfNoEntry: false });
  } catch (error) {
    // ENOTDIR: a component of the path is a file (`src/a.ts/b.ts`), so there is no such file.
    return errorCode(error) === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'unreadable', why: describeError(error) };
  }
  if (stats === undefined) return { kind: 'missing' };
  if (stats.isDirectory()) return { kind: 'folder' };
  // Reading a FIFO or a device (`/dev/zero`) to count lines would block or never end.
  if (!stats.isFile()) return { kind: 'unreadable', why: 'it is not a regular file' };
  if (stats.size > MAX_COUNTED_BYTES) return { kind: 'file', lineCount: Number.POSITIVE_INFINITY };
  if (stats.size === 0) return { kind: 'file', lineCount: 0 };
  try {
    return { kind: 'file', lineCount: countLines(absolutePath) };
  } catch (error) {
    return { kind: 'unreadable', why: describeError(error) };
  }
}

/** Lines as a person counts them: a last line without a newline counts, an empty file has none. */
function countLines(absolutePath: string): number {
  const fd = fs.openSync(absolutePath, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let newlines = 0;
    let lastByte = NEWLINE;
    let total = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      // Stop at the cap even if the file grew after stat: the answer is then only a lower bound.
      if (read === 0 || total > MAX_COUNTED_BYTES) break;
      total += read;
      const chunk = buffer.subarray(0, read);
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) newlines++;
      lastByte = chunk[read - 1];
    }
    return lastByte === NEWLINE ? newlines : newlines + 1;
  } finally {
    fs.closeSync(fd);
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function describeError(error: unknown): string {
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'EIO':
      return 'an I/O error';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
