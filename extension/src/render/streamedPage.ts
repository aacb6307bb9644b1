// A review's page while it is being rendered, slice by slice (present-review's large reviews): the
// panel shows each slice as it arrives, and learns when the last has come, or that none will
// (the render failed or was cancelled). Slices are kept until the page is dropped, so that a panel
// opened or reloaded meanwhile starts from the first.

export class StreamedPage {
  private readonly slices: string[] = [];
  private ended: 'complete' | 'failed' | undefined;
  private readonly listeners = new Set<() => void>();

  /** Slices so far. */
  get length(): number {
    return this.slices.length;
  }

  get complete(): boolean {
    return this.ended === 'complete';
  }

  slice(index: number): string | undefined {
    return this.slices[index];
  }

  add(html: string): void {
    if (this.ended) return;
    this.slices.push(html);
    this.changed();
  }

  /** Every slice has arrived. */
  finish(): void {
    this.end('complete');
  }

  /** No more slices will arrive, and the page is not whole. */
  fail(): void {
    this.end('failed');
  }

  /** Told of each slice and of the end; returns what stops telling. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The slices from `index` on, each once it has arrived, then `{ last: true }` once the page is
   * complete; it just stops when the page fails.
   */
  async *from(index: number): AsyncGenerator<{ readonly html: string; readonly last: boolean }> {
    for (let next = index; ; next++) {
      while (next >= this.slices.length && !this.ended) await new Promise<void>((resolve) => this.once(resolve));
      if (next < this.slices.length) {
        yield { html: this.slices[next], last: false };
        continue;
      }
      if (this.ended === 'complete') yield { html: '', last: true };
      return;
    }
  }

  private once(listener: () => void): void {
    const stop = this.onChange(() => {
      stop();
      listener();
    });
  }

  private end(how: 'complete' | 'failed'): void {
    if (this.ended) return;
    this.ended = how;
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
