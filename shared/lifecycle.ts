// One way to own and release resources, for code on either side of the bridge (no `vscode`
// import, so the MCP server and tests use it too). A class that owns things extends `Disposable`
// and registers each one as it makes it; it writes no dispose() of its own.

/** Anything that can be released; `vscode.Disposable` fits, and so does an async close. */
export interface IDisposable {
  dispose(): void | PromiseLike<void>;
}

/** A disposable from a function: for teardown that is not an object of its own. */
export function toDisposable(release: () => void | PromiseLike<void>): IDisposable {
  return { dispose: release };
}

/**
 * Owns what it registers and releases it once, newest first: what was made later may depend on
 * what was made before it (a server's connections before its socket). A release that returns a
 * promise is awaited before the next one, and those before the first async release happen within
 * the dispose() call itself. One failure does not stop the rest; the first failure is rethrown at
 * the end (all of them, if several).
 */
export abstract class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  private released: Promise<void> | undefined;

  protected get isDisposed(): boolean {
    return this.released !== undefined;
  }

  /**
   * Takes ownership of `item` and returns it. Something made after dispose() began (an async
   * start that finished late) is released as soon as the rest is, so it cannot outlive its owner.
   */
  protected register<T extends IDisposable>(item: T): T {
    if (!this.released) {
      this.owned.push(item);
      return item;
    }
    this.released = this.released.finally(() => item.dispose());
    // Whoever awaits dispose() sees a failure; a late release nobody awaits must not crash the process.
    this.released.catch(() => {});
    return item;
  }

  /** Releases everything registered; later calls return the first call's promise. */
  dispose(): Promise<void> {
    if (!this.released) {
      // Marked before the first release runs: a release that calls dispose() again (a panel's
      // close event) gets this promise instead of starting a second pass.
      let settle!: (release: Promise<void>) => void;
      this.released = new Promise<void>((resolve) => (settle = resolve));
      settle(this.releaseAll());
    }
    return this.released;
  }

  private async releaseAll(): Promise<void> {
    const failures: unknown[] = [];
    for (let item = this.owned.pop(); item; item = this.owned.pop()) {
      try {
        const result = item.dispose();
        if (result && typeof result.then === 'function') await result;
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} resources failed to release`);
  }
}

/** A `Disposable` to hold resources that belong to a function or a feature rather than a class. */
export class DisposableStore extends Disposable {
  add<T extends IDisposable>(item: T): T {
    return this.register(item);
  }
}
