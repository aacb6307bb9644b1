// Where each finding's code is now. A finding remembers its lines when it is first seen. Edits in
// an editor move it as they happen, saved or not; whenever positions are asked for, the remembered
// lines are looked for again in the file as it is now (the open document, or the disk), nearest to
// where the finding last was. Lines that cannot be found make the finding stale: "code changed".
// What each finding remembers is kept on disk (anchorFile.ts), so that a reload changes nothing.
// Free of the editor API (editorAnchors.ts feeds it the editor's events), so it runs in tests.

import { promises as fs } from 'fs';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { silentLogger } from '../../../shared/logger';
import { Emitter } from '../emitter';
import { AnchorFile, type StoredAnchor } from './anchorFile';
import { relocate, rememberLines, shiftForEdit, type AnchorRange, type LineEdit } from './anchorText';

/** Larger files are not read to re-anchor: their findings stay where they are. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** What one look-up of every finding's place may read from disk in all. */
const MAX_BYTES_PER_LOOKUP = 64 * 1024 * 1024;

export interface AnchoredPosition extends AnchorRange {
  readonly file: string;
  readonly stale: boolean;
}

export interface TrackedFinding {
  readonly id: string;
  readonly file: string;
  readonly line: number;
  readonly endLine: number;
}

interface Anchor {
  readonly file: string;
  range: AnchorRange;
  /** Undefined when the file could not be read: the finding is then never called stale. */
  remembered: string[] | undefined;
  stale: boolean;
}

/** The lines of a file as open in the editor (saved or not), if it is open. */
export type OpenDocumentLines = (file: string) => string[] | undefined;

export class FindingAnchors extends Disposable {
  private readonly anchors = new Map<string, Anchor>();
  private readonly moved = new Emitter<void>();
  /** Fires when an edit moved a finding or made it stale (or found it again). */
  readonly onDidMove = this.moved.event;

  /** The disk version (mtime and size) each closed file's anchors were last found in. */
  private readonly seenOnDisk = new Map<string, string>();

  /** What an earlier session remembered, by finding id: taken over when the finding is tracked again. */
  private stored: Promise<Map<string, StoredAnchor>> | undefined;
  /** A finding moved since the anchors were last saved. */
  private movedSinceSave = false;

  constructor(
    private readonly openLines: OpenDocumentLines = () => undefined,
    private readonly file: AnchorFile = new AnchorFile(undefined, silentLogger),
  ) {
    super();
    // Moves are saved here, not as they happen (edits come a keystroke at a time): what a finding
    // remembers is what finds it again, and its last place only picks the nearest of several matches.
    this.register(
      toDisposable(async () => {
        if (this.movedSinceSave) await this.save().catch(() => undefined);
        await this.file.idle();
      }),
    );
    this.register(this.moved);
  }

  /** Keeps anchors for these findings only; a new one remembers its lines as the file is now. */
  async track(findings: readonly TrackedFinding[]): Promise<void> {
    const wanted = new Set(findings.map((f) => f.id));
    for (const id of this.anchors.keys()) if (!wanted.has(id)) this.anchors.delete(id);
    // What an earlier session kept for findings no longer in the review is of no use any more.
    const stored = await (this.stored ??= this.loadStored());
    for (const id of stored.keys()) if (!wanted.has(id)) stored.delete(id);
    await this.remember(findings);
  }

  /**
   * Adds anchors for findings not tracked yet, remembering their lines now (or taking over what an
   * earlier session remembered); forgets none. Resolves once what is remembered is on disk.
   */
  async remember(findings: readonly TrackedFinding[]): Promise<void> {
    const stored = await (this.stored ??= this.loadStored());
    let fresh = findings.filter((f) => !this.anchors.has(f.id));
    if (fresh.length === 0) return;
    for (const finding of fresh) {
      const earlier = stored.get(finding.id);
      // Only for the same file: a stored anchor never makes Redline read a file the review does not name.
      if (earlier?.file !== finding.file) continue;
      const range = { line: earlier.line, endLine: earlier.endLine };
      this.anchors.set(finding.id, {
        file: finding.file,
        range,
        remembered: earlier.remembered ?? undefined,
        stale: earlier.stale,
      });
      stored.delete(finding.id);
    }
    fresh = fresh.filter((f) => !this.anchors.has(f.id));
    for (const [file, group] of groupBy(fresh, (f) => f.file)) {
      const lines = await this.readLines(file);
      this.seenOnDisk.delete(file);
      for (const finding of group) {
        if (this.anchors.has(finding.id)) continue;
        const range = { line: finding.line, endLine: finding.endLine };
        this.anchors.set(finding.id, { file, range, remembered: lines && rememberLines(lines, range), stale: false });
      }
    }
    await this.save().catch(() => undefined);
  }

  /**
   * Where each tracked finding is now, looked for again in each file as it is at this moment: the
   * open document, or the disk when the file changed there since it was last looked at. Reads are
   * bounded per call; past that, findings keep their last known place.
   */
  async positions(): Promise<Map<string, AnchoredPosition>> {
    let budget = MAX_BYTES_PER_LOOKUP;
    for (const file of new Set([...this.anchors.values()].map((a) => a.file))) {
      const open = this.openLines(file);
      if (open) {
        this.relocateIn(file, open);
        this.seenOnDisk.delete(file);
        continue;
      }
      const version = await diskVersion(file);
      if (version === undefined || version.key === this.seenOnDisk.get(file) || version.size > budget) continue;
      budget -= version.size;
      const lines = await readFileLines(file);
      if (!lines) continue;
      this.relocateIn(file, lines);
      this.seenOnDisk.set(file, version.key);
    }
    return this.known();
  }

  /** The positions as last worked out, without reading anything. */
  known(): Map<string, AnchoredPosition> {
    const positions = new Map<string, AnchoredPosition>();
    for (const [id, { file, range, stale }] of this.anchors) positions.set(id, { file, ...range, stale });
    return positions;
  }

  /**
   * Follows one change event of an open document: `edits` are relative to the text before the
   * event, `lines` are the text after it.
   */
  followEdits(file: string, edits: readonly LineEdit[], lines: () => readonly string[]): void {
    const affected = [...this.anchors.values()].filter((a) => a.file === file);
    if (affected.length === 0 || edits.length === 0) return;
    let touched = false;
    for (const anchor of affected) {
      // Every change in one event is relative to the document before the event: sum their shifts.
      let delta = 0;
      for (const edit of edits) {
        const shifted = shiftForEdit(anchor.range, edit);
        if (shifted === undefined) touched = true;
        else delta += shifted.line - anchor.range.line;
      }
      anchor.range = {
        line: Math.max(1, anchor.range.line + delta),
        endLine: Math.max(1, anchor.range.endLine + delta),
      };
    }
    this.movedSinceSave = true;
    // An edit inside a finding's lines: look for them again in the edited document.
    if (touched) this.relocateIn(file, lines());
    this.seenOnDisk.delete(file);
    this.moved.fire();
  }

  /** A file changed or went away on disk: its findings are looked for again (in the editor's copy if open). */
  async fileChanged(file: string): Promise<void> {
    if (![...this.anchors.values()].some((anchor) => anchor.file === file)) return;
    const lines = await this.readLines(file);
    if (lines && this.relocateIn(file, lines)) this.moved.fire();
  }

  /** A file that changed on disk while closed is looked at again when it opens. */
  fileOpened(file: string, lines: readonly string[]): void {
    this.seenOnDisk.delete(file);
    if (this.relocateIn(file, lines)) this.moved.fire();
  }

  private async loadStored(): Promise<Map<string, StoredAnchor>> {
    return new Map((await this.file.load()).map((anchor) => [anchor.id, anchor]));
  }

  /** Every anchor as it is now, on disk; a failure is logged by the file and tried again with the next change. */
  private save(): Promise<void> {
    this.movedSinceSave = false;
    const anchors = [...this.anchors].map(([id, { file, range, remembered, stale }]) => ({
      id,
      file,
      ...range,
      remembered: remembered ?? null,
      stale,
    }));
    return this.file.save(anchors);
  }

  private async readLines(file: string): Promise<string[] | undefined> {
    return this.openLines(file) ?? (await readFileLines(file));
  }

  /** Finds each anchor of `file` again in `lines`; true if any moved or changed staleness. */
  private relocateIn(file: string, lines: readonly string[]): boolean {
    let changed = false;
    for (const anchor of this.anchors.values()) {
      if (anchor.file !== file || !anchor.remembered) continue;
      const found = relocate(lines, anchor.remembered, anchor.range);
      const stale = found === undefined;
      if (
        stale !== anchor.stale ||
        (found && (found.line !== anchor.range.line || found.endLine !== anchor.range.endLine))
      )
        changed = true;
      anchor.stale = stale;
      if (found) anchor.range = found;
    }
    if (changed) this.movedSinceSave = true;
    return changed;
  }
}

/**
 * The file's lines as the user sees them: the open document (saved or not), else the disk. A
 * deleted file has no lines (its findings go stale); one that cannot be read gives undefined.
 */
async function readFileLines(file: string): Promise<string[] | undefined> {
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile() || stats.size > MAX_FILE_BYTES) return undefined;
    return (await fs.readFile(file, 'utf8')).split(/\r\n|\r|\n/);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
}

/** A closed file's version as the disk has it: changes when it is written; 'missing' once deleted. */
async function diskVersion(file: string): Promise<{ key: string; size: number } | undefined> {
  try {
    const stats = await fs.stat(file);
    return stats.isFile() && stats.size <= MAX_FILE_BYTES
      ? { key: `${stats.mtimeMs}:${stats.size}`, size: stats.size }
      : undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { key: 'missing', size: 0 } : undefined;
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
