// Changes to one review apply in the order their requests arrived, even when some take longer to
// prepare: a large review is rendered before it is shown (bridge/presentReview.ts), and an append
// that arrives behind it must not overtake it. Each call takes a turn on arrival and applies its
// change when every turn before it has been left; a call that is first applies at once, without
// waiting a tick, so that a change is applied before the request behind it is read.

export class ArrivalOrder {
  private readonly line: Turn[] = [];

  /** A place at the end of the line; leave it once the change is applied or given up. */
  enter(): Turn {
    const turn = new Turn(this);
    this.line.push(turn);
    return turn;
  }

  /** How many turns are taken and not yet left. */
  get length(): number {
    return this.line.length;
  }

  isFirst(turn: Turn): boolean {
    return this.line[0] === turn;
  }

  remove(turn: Turn): void {
    const at = this.line.indexOf(turn);
    if (at === -1) return;
    this.line.splice(at, 1);
    if (at === 0) this.line[0]?.wake();
  }
}

export class Turn {
  private waiter: (() => void) | undefined;

  constructor(private readonly order: ArrivalOrder) {}

  get first(): boolean {
    return this.order.isFirst(this);
  }

  /** Resolves when every earlier turn has been left; rejects with the signal's reason on abort. */
  reached(signal?: AbortSignal): Promise<void> {
    if (this.first) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.waiter = undefined;
        reject(signal!.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
    });
  }

  /** Gives the turn up; the next one goes. Leaving twice does nothing. */
  leave(): void {
    this.waiter = undefined;
    this.order.remove(this);
  }

  /** Called by the order when this turn has come. */
  wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
