// Work over a page's slices a few at a time, those on and near the screen first, so that the
// panel keeps painting and answering while, say, the findings of a 10 MiB review are marked. As
// many slices as fit in a task's budget are done at once (a short review's one slice, with the
// paint that brought it); the rest follow in tasks of their own.

/** Work per task: past this, the rest waits for the next task, after a chance to paint. */
const TASK_BUDGET_MS = 8;

export interface SliceQueueOptions {
  /** Does the work for one slice (or for a page that has none). */
  readonly work: (slice: ParentNode) => void;
  /** Runs once the queue is empty after a run. */
  readonly done?: () => void;
}

export class SliceQueue {
  private queue: ParentNode[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: SliceQueueOptions) {}

  /** Does the work for every one of `slices` (again, for those already queued), nearest the screen first. */
  run(slices: readonly Element[]): void {
    this.queue = byDistanceFromScreen(slices);
    this.drain();
  }

  /** Does the work for `slice` too, after what is queued. */
  add(slice: ParentNode): void {
    this.queue.push(slice);
    this.drain();
  }

  /** Nothing queued is done. */
  clear(): void {
    this.queue = [];
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private drain(): void {
    if (this.timer !== undefined) return;
    const started = performance.now();
    while (this.queue.length > 0 && performance.now() - started < TASK_BUDGET_MS)
      this.options.work(this.queue.shift()!);
    if (this.queue.length === 0) {
      this.options.done?.();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drain();
    }, 0);
  }
}

/** The slices on screen first, then the others by how far they are from it. */
function byDistanceFromScreen(slices: readonly Element[]): Element[] {
  if (slices.length < 2) return [...slices];
  const height = window.innerHeight;
  const distance = (slice: Element) => {
    const box = slice.getBoundingClientRect();
    return box.bottom < 0 ? -box.bottom : box.top > height ? box.top - height : 0;
  };
  return slices
    .map((slice) => ({ slice, distance: distance(slice) }))
    .sort((a, b) => a.distance - b.distance)
    .map(({ slice }) => slice);
}
