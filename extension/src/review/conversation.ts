// What the user says back: replies to findings, their states (resolved, accepted, won't fix) and
// free messages, kept in order with a cursor so the assistant reads each once. Kept as durably as
// the review: a change is on disk (appended to feedback.jsonl, feedbackJournal.ts) before anyone
// is told it happened. conversation.json is the format before the journal, read once and replaced.

import { promises as fs } from 'fs';
import * as path from 'path';
import { z } from 'zod';
import { FeedbackItem, FindingState, MAX_FEEDBACK_TEXT, type GetReviewFeedbackResult } from '../../../shared/protocol';
import { Disposable } from '../../../shared/lifecycle';
import { silentLogger, type Logger } from '../../../shared/logger';
import { Emitter } from '../emitter';
import { FeedbackJournal, type JournalContents } from './feedbackJournal';
import { withFolderLock } from './folderLock';
import { GroupCommit } from './groupCommit';
import { MAX_FINDING_STATES, RecentStates } from './recentStates';
import { describeProblem, MAX_STORED_COUNTER } from './storedState';
import { readValidFile } from './validatedFile';

/** The oldest items past this many are dropped; an assistant that fell that far behind is told. */
export const MAX_FEEDBACK_ITEMS = 2000;
/** The file before the journal: read once, then compacted into it and removed. */
const OLD_FILE = 'conversation.json';

const Stored = z.object({
  version: z.literal(1),
  /** The id the next item gets. */
  next: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  items: z.array(FeedbackItem).max(MAX_FEEDBACK_ITEMS),
  states: z.array(z.tuple([z.string().max(200), FindingState])).max(MAX_FINDING_STATES),
});
type Stored = z.infer<typeof Stored>;

/** What a new item says; its id and time are given by the conversation. */
export type NewFeedback = Omit<FeedbackItem, 'id' | 'at'>;

export class Conversation extends Disposable {
  private items: FeedbackItem[] = [];
  private next = 1;
  /** The newest id on disk: readers see nothing newer, so they never read what a crash could lose. */
  private savedThrough = 0;
  /** What the user decided about each finding, the most recent kept (recentStates.ts). */
  private readonly states = new RecentStates();
  private readonly added = this.register(new Emitter<FeedbackItem>());
  private readonly commit = new GroupCommit(() => this.write());
  /** Added since the last write began: what the next one appends. */
  private unsaved: FeedbackItem[] = [];
  /** Items numbered again because another window's came first (see takeIn). */
  private readonly renumbered = new WeakMap<FeedbackItem, FeedbackItem>();
  /** Fires once the item is on disk. */
  readonly onDidAdd = this.added.event;

  private constructor(
    private readonly journal: FeedbackJournal | undefined,
    private readonly log: Logger,
  ) {
    super();
  }

  /** Loads what an earlier session said; a bad file or line is skipped or moved aside, never fatal. */
  static async open(directory: string, log: Logger): Promise<Conversation> {
    const { journal, contents } = await FeedbackJournal.read(directory, log);
    const conversation = new Conversation(journal, log);
    if (contents) {
      conversation.restore(contents);
      await fs.rm(path.join(directory, OLD_FILE), { force: true }).catch(() => undefined);
      return conversation;
    }
    await conversation.migrate(directory);
    return conversation;
  }

  /** conversation.json, as earlier versions kept it: read, written as the journal, then removed. */
  private async migrate(directory: string): Promise<void> {
    const stored = await readValidFile(path.join(directory, OLD_FILE), {
      schema: Stored,
      maxBytes: 64 * 1024 * 1024,
      what: 'stored feedback',
      log: this.log,
      check: (s) => s.items.every((item) => Number(item.id) < s.next) || 'an item is newer than the next id',
    });
    if (!stored) return;
    const absurd = stored.next > MAX_STORED_COUNTER;
    if (absurd)
      this.log.warn('Redline renumbered the stored feedback: its next id is past any real count.', {
        directory,
        next: stored.next,
        max: MAX_STORED_COUNTER,
      });
    this.restore({
      // Not a count Redline reached: the items are kept, numbered again from 1.
      items: absurd ? stored.items.map((item, index) => ({ ...item, id: String(index + 1) })) : stored.items,
      next: absurd ? stored.items.length + 1 : stored.next,
      states: stored.states,
    });
    try {
      await this.journal!.compact(this.contents());
      await fs.rm(path.join(directory, OLD_FILE), { force: true });
    } catch (error) {
      // conversation.json stays, and is read again next time.
      this.log.warn('Redline could not move the stored feedback to its journal.', {
        directory,
        error: describeProblem(error),
      });
    }
  }

  private restore(contents: JournalContents): void {
    this.items = contents.items.slice(-MAX_FEEDBACK_ITEMS);
    this.next = contents.next;
    this.savedThrough = contents.next - 1;
    for (const [id, state] of contents.states) this.states.set(id, state);
  }

  private contents(): JournalContents {
    return { next: this.next, items: [...this.items], states: this.states.entries() };
  }

  static inMemory(): Conversation {
    return new Conversation(undefined, silentLogger);
  }

  stateOf(findingId: string): FindingState {
    return this.states.get(findingId) ?? 'open';
  }

  /**
   * The findings whose latest state, or a reply, came from an imported file, with where from (the
   * latest such origin): what the panel marks as not the user's own. One pass over the items.
   */
  importedAnswers(): Map<string, string> {
    const states = new Map<string, string | undefined>();
    const replies = new Map<string, string>();
    for (const item of this.items) {
      if (item.findingId === undefined) continue;
      const origin = item.source === 'import' ? (item.origin ?? 'imported') : undefined;
      if (item.kind === 'state') states.set(item.findingId, origin);
      else if (item.kind === 'reply' && origin !== undefined) replies.set(item.findingId, origin);
    }
    const imported = new Map(replies);
    for (const [id, origin] of states) if (origin !== undefined) imported.set(id, origin);
    return imported;
  }

  /** The user's replies to one finding that are still kept, oldest first. */
  repliesTo(findingId: string): FeedbackItem[] {
    return this.items.filter((item) => item.kind === 'reply' && item.findingId === findingId);
  }

  /**
   * Records what the user said or decided; resolves once it is on disk, then tells listeners. If
   * the save fails, the item is taken back and the error says so: the user may try again. `at` is
   * when it was said, for what an import brings back; now unless given.
   */
  async add(feedback: NewFeedback, at?: Date): Promise<FeedbackItem> {
    const item: FeedbackItem = {
      ...feedback,
      ...(feedback.text !== undefined ? { text: feedback.text.slice(0, MAX_FEEDBACK_TEXT) } : {}),
      id: String(this.next++),
      at: (at && Number.isFinite(at.getTime()) ? at : new Date()).toISOString(),
    };
    this.items.push(item);
    this.unsaved.push(item);
    if (this.items.length > MAX_FEEDBACK_ITEMS) this.items.splice(0, this.items.length - MAX_FEEDBACK_ITEMS);
    const changesState = item.kind === 'state' && item.findingId !== undefined && item.state !== undefined;
    const previousState = changesState ? this.states.get(item.findingId!) : undefined;
    if (changesState) this.states.set(item.findingId!, item.state!);
    try {
      await this.commit.request();
    } catch (error) {
      const copy = this.renumbered.get(item);
      this.items = this.items.filter((kept) => kept !== item && kept !== copy);
      this.unsaved = this.unsaved.filter((kept) => kept !== item && kept !== copy);
      if (changesState && this.states.get(item.findingId!) === item.state) {
        if (previousState === undefined) this.states.delete(item.findingId!);
        else this.states.set(item.findingId!, previousState);
      }
      throw error;
    }
    const saved = this.renumbered.get(item) ?? item;
    this.added.fire(saved);
    return saved;
  }

  /** The items after `since` (all that are kept without it), and the cursor to pass next time. */
  since(since?: string): GetReviewFeedbackResult {
    const after = since === undefined ? 0 : Number(since);
    const items = this.items.filter((item) => Number(item.id) > after && Number(item.id) <= this.savedThrough);
    // Items between the cursor and the oldest kept one were dropped (MAX_FEEDBACK_ITEMS).
    const oldest = this.items.length > 0 ? Number(this.items[0].id) : this.next;
    return { cursor: this.cursor, items, ...(since !== undefined && after + 1 < oldest ? { truncated: true } : {}) };
  }

  /** The newest saved item's id: a cursor that reads nothing old. */
  get cursor(): string {
    return String(this.savedThrough);
  }

  /** Resolves when every change so far is on disk (never rejects: a failure was logged). */
  flushed(): Promise<void> {
    return this.commit.idle();
  }

  /**
   * Items another window saved: kept in order after ours that are saved, and before ours that are
   * not, which are numbered again after them (add() hands back the renumbered item).
   */
  private takeIn(theirs: JournalContents): void {
    const known = new Set(this.items.map((item) => item.id));
    const unsaved = new Set(this.unsaved);
    const added = theirs.items.filter((item) => Number(item.id) > this.savedThrough && !known.has(item.id));
    if (added.length === 0 && theirs.next <= this.next - this.unsaved.length) return;
    this.next = Math.max(this.next - this.unsaved.length, theirs.next);
    for (const item of added) {
      if (item.kind === 'state' && item.findingId !== undefined && item.state !== undefined)
        this.states.set(item.findingId, item.state);
    }
    this.unsaved = this.unsaved.map((item) => {
      const renumbered = { ...item, id: String(this.next++) };
      this.renumbered.set(item, renumbered);
      return renumbered;
    });
    this.items = [...this.items.filter((item) => !unsaved.has(item)), ...added, ...this.unsaved].slice(
      -MAX_FEEDBACK_ITEMS,
    );
    this.savedThrough = highestId(added, this.savedThrough);
  }

  private async write(): Promise<void> {
    const journal = this.journal;
    if (!journal) {
      this.unsaved = [];
      this.savedThrough = this.next - 1;
      return;
    }
    try {
      // Another window on the same folder appends to the same journal: under the folder's lock, its
      // items are taken in first, and ours numbered after them, so that no id is given twice.
      await withFolderLock(path.dirname(journal.file), async (hold) => {
        const theirs = await journal.catchUp(this.log);
        if (theirs) this.takeIn(theirs);
        const batch = this.unsaved.splice(0);
        await journal.append(
          batch,
          () => this.contents(),
          () => hold.assertHeld(),
        );
        this.savedThrough = highestId(batch, this.savedThrough);
      });
    } catch (error) {
      this.log.warn('Redline could not save the feedback.', { file: journal.file, error: describeProblem(error) });
      throw new Error(
        `Redline could not save your feedback (${describeProblem(error)}); check that ${path.dirname(this.journal.file)} is writable.`,
      );
    }
  }
}

/**
 * The highest id among `items`, or `floor`. A loop, not Math.max(...ids): another window may have
 * appended more items than one call's arguments can hold.
 */
function highestId(items: readonly FeedbackItem[], floor: number): number {
  let highest = floor;
  for (const item of items) highest = Math.max(highest, Number(item.id));
  return highest;
}
