// Long loops on a shared thread, cut into slices. The extension host's thread is every
// extension's, so a loop over stored or received data that can run past a frame (a journal of
// half a million lines) gives the event loop a turn between slices instead of holding it.

import { setImmediate as nextTask } from 'timers/promises';

/** A slice of work lasts at most about this long: half a frame at 60 Hz. */
export const SLICE_MS = 8;

export class TimeSlices {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** True once the current slice has used its time: `await next()` before going on. */
  get due(): boolean {
    return performance.now() - this.sliceStarted >= this.sliceMs;
  }

  /** Gives the event loop a turn, then starts a new slice. */
  async next(): Promise<void> {
    await nextTask();
    this.sliceStarted = performance.now();
  }
}
