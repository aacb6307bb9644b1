// The order in which a long page reaches the panel's document: its slices, and any append that
// follows them, each added in a task of its own, so that the panel keeps painting and answering
// the user while a long review comes in. A new page drops whatever of the old one is still to come.

/** Work per task: past this, the rest waits for the next task, after a chance to paint. */
const TASK_BUDGET_MS = 8;

/** Which page a slice belongs to, and whether the page is whole after it. */
export interface SliceInfo {
  readonly revision: number;
  readonly last: boolean;
}

export class PageStream {
  private queue: Array<() => void> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The revision whose slices are still arriving; undefined when no page is. */
  private arriving: number | undefined;

  /** A page or an append would land in the middle of another page, so it must queue. */
  get busy(): boolean {
    return this.arriving !== undefined || this.queue.length > 0;
  }

  /** Another page (or the empty state) replaces the page: nothing more of it is added. */
  reset(): void {
    this.queue = [];
    clearTimeout(this.timer);
    this.timer = undefined;
    this.arriving = undefined;
  }

  /** `revision`'s first slice is shown and its others follow (`slice`). */
  expect(revision: number): void {
    this.arriving = revision;
  }

  /**
   * Adds the next slice of the page that is arriving, after what is queued: `add` puts it in
   * the page, `done` runs after the last one. A slice of any other page is dropped.
   */
  slice({ revision, last }: SliceInfo, steps: { add(): void; done(): void }): void {
    if (revision !== this.arriving) return;
    if (last) this.arriving = undefined;
    this.enqueue(() => {
      steps.add();
      if (last) steps.done();
    });
  }

  /** Runs `task` after everything queued before it, never in the middle of it. */
  enqueue(task: () => void): void {
    this.queue.push(task);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const started = performance.now();
      while (this.queue.length > 0 && performance.now() - started < TASK_BUDGET_MS) this.queue.shift()!();
      this.schedule();
    }, 0);
  }
}
