// Waiting for the user's feedback without holding a request open on the socket: the window pushes
// "feedback-added" to every connected server, and the wait reads again when it arrives, every
// PROGRESS_MS (which also covers an event missed during a reconnect), and at the deadline.

import type { GetReviewFeedbackResult } from '../../shared/protocol';
import { ErrorCode, IpcError } from '../../shared/protocol';
import type { IpcClient } from './ipcClient';

export const PROGRESS_MS = 15_000;

export interface FeedbackWait {
  readonly bridge: Pick<IpcClient, 'request' | 'onEvent'>;
  readonly since?: string;
  /** Whose review: the calling assistant's name. */
  readonly assistant?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Called every PROGRESS_MS while waiting, when the client asked for progress. */
  readonly progress?: (elapsedMs: number, totalMs: number) => Promise<void> | void;
  /** For tests. */
  readonly progressMs?: number;
}

export async function waitForFeedback(wait: FeedbackWait): Promise<GetReviewFeedbackResult & { timedOut: boolean }> {
  const started = Date.now();
  const deadline = started + wait.timeoutMs;
  let since = wait.since;
  if (since === undefined) {
    // Only what comes after this call: start from the newest item there is, reading on past
    // answers cut at their size (`more`) to reach it.
    let newest = await wait.bridge.request(
      'get-review-feedback',
      { assistant: wait.assistant },
      { signal: wait.signal },
    );
    while (newest.more)
      newest = await wait.bridge.request(
        'get-review-feedback',
        { since: newest.cursor, assistant: wait.assistant },
        { signal: wait.signal },
      );
    since = newest.cursor;
  }
  for (;;) {
    const result: GetReviewFeedbackResult = await wait.bridge.request(
      'get-review-feedback',
      { since, assistant: wait.assistant },
      { signal: wait.signal },
    );
    if (result.items.length > 0) return { ...result, timedOut: false };
    since = result.cursor;
    const now = Date.now();
    if (now >= deadline) return { ...result, timedOut: true };
    await nextWake(wait, Math.min(deadline - now, wait.progressMs ?? PROGRESS_MS));
    if (Date.now() < deadline && wait.progress) {
      await Promise.resolve(wait.progress(Date.now() - started, wait.timeoutMs)).catch(() => undefined);
    }
  }
}

/** Resolves on the next feedback event or after `ms`; rejects at once on abort. Leaves nothing behind. */
function nextWake(wait: FeedbackWait, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (wait.signal?.aborted) {
      reject(cancelled());
      return;
    }
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      wait.signal?.removeEventListener('abort', onAbort);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    const subscription = wait.bridge.onEvent((event) => {
      if (event !== 'feedback-added') return;
      done();
      resolve();
    });
    const onAbort = () => {
      done();
      reject(cancelled());
    };
    wait.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(): IpcError {
  return new IpcError(ErrorCode.Cancelled, 'await-review-feedback was cancelled.');
}
