// Where long work on the extension host's thread lets a cancel in. A render's steps can all be
// synchronous (a parse of seconds, lookups answered from what is known, an HTML pass), so a cancel
// that arrived meanwhile sits unread in its socket: between steps, the event loop polls once.

/**
 * Lets the event loop poll for input once. One setImmediate is not enough: called from an I/O
 * callback it runs in the same turn of the loop, before the next poll; the second one runs after it.
 */
export function readPendingInput(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** With a signal: reads pending input, then stops with the signal's reason if it was aborted. */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return;
  await readPendingInput();
  signal.throwIfAborted();
}
