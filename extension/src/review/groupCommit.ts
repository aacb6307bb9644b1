// Group commit: every change that arrives while a write is in flight goes out together in the
// next one, so a burst of N changes costs a couple of writes, not N.

export class GroupCommit {
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private running: Promise<void> | undefined;

  /** `write` saves the state as it is when it starts; it sees every change requested before. */
  constructor(private readonly write: () => Promise<void>) {}

  /**
   * Resolves when a write that started after this call has completed; rejects if that write
   * failed. The promise is marked handled, so a caller that drops it causes no unhandled
   * rejection (the store logs the failure itself), while one that awaits it still sees the error.
   */
  request(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    done.catch(() => undefined);
    this.running ??= this.drain();
    return done;
  }

  /** Resolves when no write is in flight or waiting; never rejects. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // One turn of the microtask queue, so that changes made in the same synchronous burst share the first write too.
    await Promise.resolve();
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          await this.write();
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}
