import { Disposable, DisposableStore, toDisposable } from '../../shared/lifecycle';
import { yieldThread } from '../../shared/threadYield';

class Owner extends Disposable {
  constructor(readonly order: string[]) {
    super();
  }
  own(name: string, release?: () => void | Promise<void>) {
    return this.register(
      toDisposable(() => {
        this.order.push(name);
        return release?.();
      }),
    );
  }
  get disposed() {
    return this.isDisposed;
  }
}

describe('Disposable', () => {
  it('releases what it registered once, newest first', async () => {
    const order: string[] = [];
    const owner = new Owner(order);
    owner.own('socket');
    owner.own('connection');
    const first = owner.dispose();
    const second = owner.dispose();
    expect(second).toBe(first);
    await first;
    expect(order).toEqual(['connection', 'socket']);
    expect(owner.disposed).toBe(true);
  });

  it('releases synchronously up to the first async release, and awaits that one before the next', async () => {
    const order: string[] = [];
    const owner = new Owner(order);
    let finishClose!: () => void;
    owner.own('lock');
    owner.own('server', () => new Promise<void>((resolve) => (finishClose = resolve)));
    owner.own('timer');
    const done = owner.dispose();
    expect(order).toEqual(['timer', 'server']);
    finishClose();
    await done;
    expect(order).toEqual(['timer', 'server', 'lock']);
  });

  it('releases the rest when one release fails, then rethrows the failure', async () => {
    const order: string[] = [];
    const owner = new Owner(order);
    owner.own('a');
    owner.own('b', () => {
      throw new Error('b failed');
    });
    owner.own('c');
    await expect(owner.dispose()).rejects.toThrow('b failed');
    expect(order).toEqual(['c', 'b', 'a']);
  });

  it('gathers several failures into one AggregateError', async () => {
    const owner = new Owner([]);
    owner.own('a', () => Promise.reject(new Error('a failed')));
    owner.own('b', () => {
      throw new Error('b failed');
    });
    const failure = await owner.dispose().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['b failed', 'a failed']);
  });

  it('releases what is registered after dispose began, and later dispose() calls wait for it', async () => {
    const order: string[] = [];
    const owner = new Owner(order);
    owner.own('early');
    const first = owner.dispose();
    let finishLate!: () => void;
    owner.own('late', () => new Promise<void>((resolve) => (finishLate = resolve)));
    await first;
    expect(order).toEqual(['early', 'late']);
    let settled = false;
    const later = owner.dispose().then(() => (settled = true));
    await yieldThread();
    expect(settled).toBe(false);
    finishLate();
    await later;
    expect(settled).toBe(true);
  });

  it('does not leave an unhandled rejection when a late release fails and nobody waits', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const owner = new Owner([]);
      await owner.dispose();
      owner.own('late', () => Promise.reject(new Error('late failed')));
      await expect(owner.dispose()).rejects.toThrow('late failed');
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe('DisposableStore', () => {
  it('holds resources for code that is not a class', async () => {
    const released: string[] = [];
    const store = new DisposableStore();
    const item = store.add(toDisposable(() => void released.push('listener')));
    expect(typeof item.dispose).toBe('function');
    await store.dispose();
    expect(released).toEqual(['listener']);
  });
});

describe('Disposable, disposed again from within its own release', () => {
  it('releases each item once and in order when a release calls dispose() again', async () => {
    const order: string[] = [];
    const owner = new Owner(order);
    owner.own('listener');
    let again: Promise<void> | undefined;
    owner.own('panel', () => {
      // A panel's close event disposes its owner, which is already disposing.
      again = owner.dispose();
    });
    owner.own('timer');
    const first = owner.dispose();
    expect(again).toBe(first);
    await first;
    expect(order).toEqual(['timer', 'panel', 'listener']);
  });
});
