// The window's recent tool calls, for the Activity view: the IPC server tells it of each request
// as it arrives and as it is answered. Kept in memory only, at most `capacity` calls, and every
// string from the socket is cut and copied before it is kept, so no peer can grow it.

import { Disposable } from '../../../shared/lifecycle';
import { MAX_ASSISTANT_CHARS } from '../../../shared/protocol';
import { Emitter, type Event } from '../emitter';
import type { ObservedRequest, RequestObserver, RequestOutcome, RequestStatus } from '../ipc/requestContract';

export const ACTIVITY_CAPACITY = 200;
/** Longer error messages are cut: the view shows one line, and the MCP server's log has the rest. */
export const MAX_ERROR_CHARS = 500;
export const MAX_METHOD_CHARS = 100;
export const MAX_ID_CHARS = 64;

export type ActivityStatus = RequestStatus | 'running';

/** One call, as the view shows it. A new object each time the call changes. */
export interface ActivityEntry {
  /** Unique in this log, higher for later calls. */
  readonly seq: number;
  /** The request's id, which the assistant's MCP server writes to its log too. */
  readonly id: string;
  readonly connectionId: number;
  readonly method: string;
  /** The assistant's MCP client name, when its MCP server sent one. */
  readonly client: string | undefined;
  /** In ms since the epoch. */
  readonly startedAt: number;
  readonly status: ActivityStatus;
  /** Set once it is no longer running. */
  readonly durationMs?: number;
  readonly error?: { readonly code: number; readonly message: string };
}

interface Slot {
  entry: ActivityEntry;
  /** The request while it runs; cleared once it settles or is evicted. */
  running: ObservedRequest | undefined;
}

export class ActivityLog extends Disposable implements RequestObserver {
  /** Oldest first. */
  private slots: Slot[] = [];
  private readonly running = new Map<ObservedRequest, Slot>();
  private nextSeq = 1;
  private readonly changed = this.register(new Emitter<void>());
  /** Fires after every change, synchronously: listeners that redraw should batch. */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(readonly capacity = ACTIVITY_CAPACITY) {
    super();
  }

  /** Newest first. */
  entries(): readonly ActivityEntry[] {
    return this.slots.map((slot) => slot.entry).reverse();
  }

  get size(): number {
    return this.slots.length;
  }

  onRequestStarted(request: ObservedRequest): void {
    const slot: Slot = {
      entry: {
        seq: this.nextSeq++,
        id: clampText(request.id, MAX_ID_CHARS),
        connectionId: request.connectionId,
        method: clampText(request.method, MAX_METHOD_CHARS),
        client: request.client === undefined ? undefined : clampText(request.client, MAX_ASSISTANT_CHARS) || undefined,
        startedAt: request.receivedAt,
        status: 'running',
      },
      running: request,
    };
    this.slots.push(slot);
    this.running.set(request, slot);
    while (this.slots.length > this.capacity) {
      const evicted = this.slots.shift()!;
      if (evicted.running) this.running.delete(evicted.running);
    }
    this.changed.fire();
  }

  onRequestSettled(request: ObservedRequest, outcome: RequestOutcome): void {
    const slot = this.running.get(request);
    // Evicted or cleared while it ran: there is nothing left to update.
    if (!slot) return;
    this.running.delete(request);
    slot.running = undefined;
    slot.entry = {
      ...slot.entry,
      status: outcome.status,
      durationMs: Math.max(0, outcome.durationMs),
      ...(outcome.error
        ? { error: { code: outcome.error.code, message: clampText(outcome.error.message, MAX_ERROR_CHARS) } }
        : {}),
    };
    this.changed.fire();
  }

  clear(): void {
    this.slots = [];
    this.running.clear();
    this.changed.fire();
  }
}

/**
 * One line of at most `max` characters that holds no reference to `text`. Control and bidi
 * characters become spaces, so a name cannot reorder or break the line it is shown in; and the
 * copy keeps a cut of a huge string from holding all of it in memory.
 */
export function clampText(text: string, max: number): string {
  const line = text
    .slice(0, max)
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .trim();
  return Buffer.from(line, 'utf16le').toString('utf16le');
}
