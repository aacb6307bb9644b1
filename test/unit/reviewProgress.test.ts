// The MCP server's side of a large present-review's progress: only with a progress token and a
// large review, one scale from the bytes' trip to the window's steps, always rising, and silent
// once closed.

import { LARGE_REVIEW_BYTES } from '../../shared/protocol';
import { reviewProgress } from '../../mcp-server/src/tools/reviewProgress';

type Sent = {
  method: string;
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
};

function extra(progressToken?: string | number) {
  const sent: Sent[] = [];
  return {
    sent,
    extra: {
      _meta: progressToken === undefined ? undefined : { progressToken },
      notify: async (notification: unknown) => void sent.push(notification as Sent),
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reviewProgress', () => {
  it('is nothing without a progress token, or for a review under LARGE_REVIEW_BYTES', () => {
    expect(reviewProgress(extra().extra as never, LARGE_REVIEW_BYTES * 4)).toBeUndefined();
    expect(reviewProgress(extra('t').extra as never, LARGE_REVIEW_BYTES - 1)).toBeUndefined();
    expect(reviewProgress(extra(0).extra as never, LARGE_REVIEW_BYTES)).toBeDefined();
  });

  it('puts the bytes at 0 to 9 and the window at 10 to 100, sends only rising values, and nothing after close', async () => {
    const { sent, extra: e } = extra('tok');
    const progress = reviewProgress(e as never, LARGE_REVIEW_BYTES)!;
    progress.onProgress({ stage: 'sending', sentBytes: 512, totalBytes: 1024 });
    await sleep(120);
    progress.onProgress({ stage: 'window', progress: 0, total: 100, message: 'Received the review (0.3 MiB)' });
    await sleep(120);
    // Not higher than the last: MCP wants each notification's progress above the one before.
    progress.onProgress({ stage: 'sending', sentBytes: 1024, totalBytes: 1024 });
    progress.onProgress({ stage: 'window', progress: 50, total: 100, message: 'Half' });
    await sleep(120);
    progress.onProgress({ stage: 'window', progress: 60, message: 'no total' });
    await sleep(120);
    progress.onProgress({ stage: 'window', progress: 95, total: 100, message: 'Shown' });
    progress.onProgress({ stage: 'window', progress: 100, total: 100, message: 'Saved' });
    progress.close();
    await sleep(200);
    progress.onProgress({ stage: 'window', progress: 100, total: 100, message: 'late' });
    expect(
      sent.map((n) => [n.method, n.params.progressToken, n.params.progress, n.params.total, n.params.message]),
    ).toEqual([
      ['notifications/progress', 'tok', 4.5, 100, 'Sending the review to VS Code: 0.0 of 0.0 MiB'],
      ['notifications/progress', 'tok', 10, 100, 'VS Code: Received the review (0.3 MiB)'],
      ['notifications/progress', 'tok', 55, 100, 'VS Code: Half'],
      ['notifications/progress', 'tok', 95.5, 100, 'VS Code: Shown'],
    ]);
  });

  it('sends at most ten a second however fast the updates come', () => {
    // An update every millisecond for half a second, on a faked clock: on a busy machine a real
    // half second may hold too few updates to fill the slots.
    jest.useFakeTimers();
    try {
      const { sent, extra: e } = extra('tok');
      const progress = reviewProgress(e as never, LARGE_REVIEW_BYTES)!;
      for (let i = 1; i <= 500; i++) {
        progress.onProgress({ stage: 'window', progress: Math.min(i / 1000, 100), total: 100, message: `step ${i}` });
        jest.advanceTimersByTime(1);
      }
      progress.close();
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(sent.length).toBeLessThanOrEqual(6);
    } finally {
      jest.useRealTimers();
    }
  });
});
