// Progress at a bounded rate: at most one update per interval goes out, and when updates come
// faster, the latest one waits for the next slot (the ones between are dropped, since each says
// all there is to say). After close() nothing more goes out, not even the one waiting: a request's
// progress must never follow its reply.

/** At most ten updates a second for one request, as an MCP client receives them. */
export const PROGRESS_INTERVAL_MS = 100;

export class ProgressThrottle<T> {
  private lastSent = -Infinity;
  private waiting: { update: T } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly send: (update: T) => void,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  report(update: T): void {
    if (this.closed) return;
    const wait = this.lastSent + this.intervalMs - this.now();
    if (wait <= 0) {
      // The slot is free, even if the timer for a waiting update has not fired (the thread was
      // busy): this update replaces that one and goes now, not after the work that comes next.
      clearTimeout(this.timer);
      this.timer = undefined;
      this.waiting = undefined;
      this.emit(update);
      return;
    }
    this.waiting = { update };
    if (this.timer !== undefined) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const waiting = this.waiting;
        this.waiting = undefined;
        if (waiting && !this.closed) this.emit(waiting.update);
      },
      Math.max(0, wait),
    );
    // A request that never settles must not keep the process alive for its progress.
    this.timer.unref?.();
  }

  /**
   * Sends now, whatever the interval: for the few updates that start a new step, since the step
   * may hold the thread for seconds and an update waiting for its slot would wait behind it. The
   * caller keeps these few; the rest go through report().
   */
  sendNow(update: T): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = undefined;
    this.emit(update);
  }

  /** Drops what waits and sends nothing more. */
  close(): void {
    this.closed = true;
    this.waiting = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private emit(update: T): void {
    this.lastSent = this.now();
    this.send(update);
  }
}
