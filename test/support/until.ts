// Waiting in a test for a condition, never for a time: on a busy machine a fixed sleep ends before
// the thing it waited for, and the test fails on correct code. One helper for every jest suite.

import { WAIT_DEADLINE_MS } from './deadlines.cjs';

/** How often the condition is polled: often enough not to slow a test, rarely enough to cost nothing. */
const POLL_MS = 5;

/**
 * Resolves once `condition` holds. Rejects after the hang deadline of deadlines.cjs with an error
 * naming `what` was awaited (a function is asked only then, so it can describe the state the test
 * was left in). The deadline is shorter than a test's, so that it is this message that fails.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string | (() => string)): Promise<void> {
  const timeoutMs = WAIT_DEADLINE_MS;
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** How a promise settled, read as it settles, so that a test can wait for several and then inspect each. */
export function settlement(promise: Promise<unknown>): { settled: boolean; error?: unknown } {
  const state: { settled: boolean; error?: unknown } = { settled: false };
  promise.then(
    () => Object.assign(state, { settled: true }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}
