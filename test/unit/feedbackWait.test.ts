import { waitForFeedback, type FeedbackWait } from '../../mcp-server/src/feedbackWait';
import type { FeedbackItem } from '../../shared/protocol';
import { until } from '../support/until';

/** A bridge over a list of items, with the window's feedback-added event. */
function fakeBridge() {
  const items: FeedbackItem[] = [];
  const listeners = new Set<(event: string) => void>();
  const requests: Array<string | undefined> = [];
  return {
    listeners,
    requests,
    add(text: string) {
      items.push({ id: String(items.length + 1), kind: 'message', text, at: 'now' });
      for (const listener of [...listeners]) listener('feedback-added');
    },
    // IpcClient's request is generic over every method; this fake answers the one the wait sends.
    bridge: {
      request: async (_method: string, params: { since?: string }) => {
        requests.push(params.since);
        const after = Number(params.since ?? 0);
        return { cursor: String(items.length), items: items.filter((i) => Number(i.id) > after) };
      },
      onEvent: (listener: (event: string) => void) => {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    } as unknown as FeedbackWait['bridge'],
  };
}

describe('waiting for feedback', () => {
  it('returns at once when there is something newer than since', async () => {
    const fake = fakeBridge();
    fake.add('old');
    fake.add('new');
    const result = await waitForFeedback({ bridge: fake.bridge, since: '1', timeoutMs: 60_000 });
    expect(result).toMatchObject({ timedOut: false, cursor: '2', items: [{ text: 'new' }] });
  });

  it('without since, waits for what comes after the call, woken by the event', async () => {
    const fake = fakeBridge();
    fake.add('before the call');
    const waiting = waitForFeedback({ bridge: fake.bridge, timeoutMs: 60_000 });
    await until(() => fake.listeners.size === 1, 'the wait to listen for the event');
    fake.add('after');
    const result = await waiting;
    expect(result.items.map((i) => i.text)).toEqual(['after']);
    expect(fake.listeners.size).toBe(0);
  });

  it('sends progress while it waits, and times out with timedOut', async () => {
    // On a clock the test moves: on a busy machine a real one can pass the deadline before a progress timer runs.
    jest.useFakeTimers();
    try {
      const fake = fakeBridge();
      const progress: number[] = [];
      const waiting = waitForFeedback({
        bridge: fake.bridge,
        since: '0',
        timeoutMs: 250,
        progressMs: 60,
        progress: (elapsed) => void progress.push(elapsed),
      });
      await jest.advanceTimersByTimeAsync(250);
      const result = await waiting;
      expect(result).toMatchObject({ timedOut: true, items: [] });
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(fake.listeners.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops at once on cancellation and leaves no listener or timer behind', async () => {
    const fake = fakeBridge();
    const controller = new AbortController();
    const waiting = waitForFeedback({
      bridge: fake.bridge,
      since: '0',
      timeoutMs: 3_600_000,
      signal: controller.signal,
    });
    await until(() => fake.listeners.size === 1, 'the wait to listen for the event');
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    expect(fake.listeners.size).toBe(0);
  });
});
