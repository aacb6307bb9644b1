// Decodes and parses the bridge's large lines (a present-review of megabytes) in a worker thread,
// so that another assistant's call is not kept waiting on the window's thread while one line of
// tens of megabytes is turned into text and parsed. The worker is started for the first large line
// and ends when idle; its code is a few lines given inline, so it needs no file of its own. If it
// cannot run, a line is parsed on this thread instead: a message is never lost.

import { Worker } from 'worker_threads';
import { Disposable, toDisposable } from '../../../shared/lifecycle';

/** A line as parsed: its JSON value, nothing (a blank line), or not JSON. */
export type ParsedLine =
  { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'blank' } | { readonly kind: 'invalid' };

/** Lines from this size go to the worker; smaller ones parse faster here than a round trip to it. */
export const OFF_THREAD_LINE_BYTES = 1024 * 1024;

/** The worker ends after this long without a line, giving its memory back. */
const IDLE_MS = 30_000;

/** As LineDecoder trims a line: without a trailing `\r`; all blank is no message. */
function parseText(text: string): ParsedLine {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (line.trim() === '') return { kind: 'blank' };
  try {
    return { kind: 'json', value: JSON.parse(line) };
  } catch {
    return { kind: 'invalid' };
  }
}

const WORKER_SOURCE = `
const { parentPort } = require('worker_threads');
const parseText = ${parseText.toString()};
parentPort.on('message', ({ id, bytes }) => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  parentPort.postMessage({ id, parsed: parseText(text) });
});
`;

/** Parses a line's bytes on this thread: the fallback, and the reference the worker must match. */
export function parseLineHere(bytes: Buffer): ParsedLine {
  return parseText(bytes.toString('utf8'));
}

export class OffThreadLineParser extends Disposable {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (parsed: ParsedLine) => void; bytes: Buffer }>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Lines the worker parsed; tests see that a large line did not parse on this thread. */
  parsedOffThread = 0;

  constructor() {
    super();
    this.register(
      toDisposable(async () => {
        clearTimeout(this.idleTimer);
        await this.stop();
      }),
    );
  }

  /**
   * The line's value, parsed in the worker. Its bytes are copied to the worker, not transferred:
   * they are kept here until it answers, so that a worker that dies meanwhile loses no message.
   */
  parse(bytes: Buffer): Promise<ParsedLine> {
    const worker = this.isDisposed ? undefined : this.running();
    if (!worker) return Promise.resolve(parseLineHere(bytes));
    clearTimeout(this.idleTimer);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, bytes });
      worker.postMessage({ id, bytes });
    });
  }

  private running(): Worker | undefined {
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
    } catch {
      return undefined;
    }
    // An idle parser must not keep the extension host (or a test run) alive.
    worker.unref();
    worker.on('message', ({ id, parsed }: { id: number; parsed: ParsedLine }) => {
      const entry = this.pending.get(id);
      if (!entry) return;
      this.pending.delete(id);
      this.parsedOffThread++;
      entry.resolve(parsed);
      if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
    });
    // Only while it is the running one: an old worker's late exit must not end its successor.
    const stopIfCurrent = () => this.worker === worker && void this.stop();
    worker.on('error', stopIfCurrent);
    worker.on('exit', stopIfCurrent);
    this.worker = worker;
    return worker;
  }

  /**
   * Ends the worker; lines it had not answered yet are parsed here, in the order they came. Resolves
   * once the worker has exited, for dispose() to wait on.
   */
  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const { resolve, bytes } of left) resolve(parseLineHere(bytes));
    await worker?.terminate();
  }
}
