// What the user says back: replies to findings, their states (resolved, accepted, won't fix) and
// free messages, kept in order with a cursor so the assistant reads each once. Kept as durably as
// the review: a change is on disk (conversation.json, atomic) before anyone is told it happened.

import { promises as fs } from 'fs';
import * as path from 'path';
import { z } from 'zod';
import {
  FeedbackItem,
  FindingState,
  MAX_FEEDBACK_TEXT,
  type GetReviewFeedbackResult,
} from '../../../shared/protocol';
import { syncDirectory, writeTemp } from './atomicFile';
import { Emitter, type Disposable } from '../events';
import { GroupCommit } from './groupCommit';
import { describeProblem, MAX_STORED_COUNTER } from './storedState';
import { readValidFile } from './validatedFile';

/** The oldest items past this many are dropped; an assistant that fell that far behind is told. */
export const MAX_FEEDBACK_ITEMS = 2000;
/** States of this many findings are kept, the most recently changed. */
export const MAX_FINDING_STATES = 5000;
const FILE = 'conversation.json';

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

export class Conversation implements Disposable {
  private items: FeedbackItem[] = [];
  private next = 1;
  /** The newest id on disk: readers see nothing newer, so they never read what a crash could lose. */
  private savedThrough = 0;
  /** Insertion order is recency: a state set again moves to the end. */
  private readonly states = new Map<string, FindingState>();
  private readonly added = new Emitter<FeedbackItem>();
  private readonly commit = new GroupCommit(() => this.write());
  /** Fires once the item is on disk. */
  readonly onDidAdd = this.added.event;

  private constructor(
    private readonly directory: string | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** Loads what an earlier session said; a bad file is moved aside, never fatal. */
  static async open(directory: string, warn: (message: string) => void): Promise<Conversation> {
    const conversation = new Conversation(directory, warn);
    const stored = await readValidFile(path.join(directory, FILE), {
      schema: Stored,
      maxBytes: 64 * 1024 * 1024,
      what: 'stored feedback',
      warn,
      check: (s) => s.items.every((item) => Number(item.id) < s.next) || 'an item is newer than the next id',
    });
    if (stored) {
      conversation.items = stored.items;
      conversation.next = stored.next;
      if (stored.next > MAX_STORED_COUNTER) {
        // Not a count Redline reached: the items are kept, numbered again from 1.
        warn(`Redline renumbered the stored feedback in ${directory}: its next id, ${stored.next}, is past any real count (${MAX_STORED_COUNTER}).`);
        conversation.items = stored.items.map((item, index) => ({ ...item, id: String(index + 1) }));
        conversation.next = stored.items.length + 1;
      }
      conversation.savedThrough = conversation.next - 1;
      for (const [id, state] of stored.states) conversation.states.set(id, state);
    }
    return conversation;
  }

  static inMemory(): Conversation {
    return new Conversation(undefined, () => undefined);
  }

  stateOf(findingId: string): FindingState {
    return this.states.get(findingId) ?? 'open';
  }

  /** The user's replies to one finding that are still kept, oldest first. */
  repliesTo(findingId: string): FeedbackItem[] {
    return this.items.filter((item) => item.kind === 'reply' && item.findingId === findingId);
  }

  /**
   * Records what the user said or decided; resolves once it is on disk, then tells listeners. If
   * the save fails, the item is taken back and the error says so: the user may try again.
   */
  async add(feedback: NewFeedback): Promise<FeedbackItem> {
    const item: FeedbackItem = {
      ...feedback,
      ...(feedback.text !== undefined ? { text: feedback.text.slice(0, MAX_FEEDBACK_TEXT) } : {}),
      id: String(this.next++),
      at: new Date().toISOString(),
    };
    this.items.push(item);
    if (this.items.length > MAX_FEEDBACK_ITEMS) this.items.splice(0, this.items.length - MAX_FEEDBACK_ITEMS);
    const changesState = item.kind === 'state' && item.findingId !== undefined && item.state !== undefined;
    const previousState = changesState ? this.states.get(item.findingId!) : undefined;
    if (changesState) this.setState(item.findingId!, item.state!);
    try {
      await this.commit.request();
    } catch (error) {
      this.items = this.items.filter((kept) => kept !== item);
      if (changesState && this.states.get(item.findingId!) === item.state) {
        if (previousState === undefined) this.states.delete(item.findingId!);
        else this.setState(item.findingId!, previousState);
      }
      throw error;
    }
    this.added.fire(item);
    return item;
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

  dispose(): void {
    this.added.dispose();
  }

  private setState(findingId: string, state: FindingState): void {
    // Re-inserted, so that the map's order is recency and the oldest decision is the one dropped.
    this.states.delete(findingId);
    this.states.set(findingId, state);
    if (this.states.size > MAX_FINDING_STATES) this.states.delete(this.states.keys().next().value!);
  }

  private async write(): Promise<void> {
    const through = this.next - 1;
    if (!this.directory) {
      this.savedThrough = through;
      return;
    }
    const stored: Stored = { version: 1, next: this.next, items: [...this.items], states: [...this.states] };
    const target = path.join(this.directory, FILE);
    try {
      await fs.mkdir(this.directory, { recursive: true });
      const temp = await writeTemp(target, JSON.stringify(stored));
      await fs.rename(temp, target);
      await syncDirectory(this.directory);
      this.savedThrough = Math.max(this.savedThrough, through);
    } catch (error) {
      this.warn(`Redline could not save the feedback to ${target}: ${describeProblem(error)}.`);
      throw new Error(`Redline could not save your feedback (${describeProblem(error)}); check that ${this.directory} is writable.`);
    }
  }
}
