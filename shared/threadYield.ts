// The one way to give the event loop a turn. The extension host's thread is every extension's, and
// the MCP server's answers every client: a loop over received or stored data that can run past a
// frame yields between steps, so input (a cancel, another client's call) is read meanwhile.

/** A slice of work lasts at most about this long: half a frame at 60 Hz. */
export const SLICE_MS = 8;

/**
 * Lets the event loop poll for input once, then stops with the signal's reason if it was aborted.
 * One setImmediate is not enough: called from an I/O callback it runs in the same turn of the
 * loop, before the next poll; the second one runs after it.
 */
export async function yieldThread(signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
  signal?.throwIfAborted();
}

/** Yields only when the current slice has used its time, so a fast loop pays almost nothing. */
export class TimeSlices {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** True once the current slice has used its time. */
  get due(): boolean {
    return performance.now() - this.sliceStarted >= this.sliceMs;
  }

  /** Yields if the slice is due, then starts a new one; stops with the signal's reason if aborted. */
  async yieldIfDue(signal?: AbortSignal): Promise<void> {
    if (!this.due) return;
    await yieldThread(signal);
    this.sliceStarted = performance.now();
  }
}
