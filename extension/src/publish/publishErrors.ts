// Why publishing stopped, in words that say what to do next. GitHub's answers (a rate limit, a
// refusal, no answer at all) are read here from the error Octokit throws, without Octokit itself.

export type PublishErrorCode =
  | 'not-signed-in'
  | 'no-repository'
  | 'not-pushed'
  | 'unknown-server'
  | 'no-pull-request'
  | 'pull-request-closed'
  | 'head-mismatch'
  | 'nothing-to-publish'
  | 'rate-limited'
  | 'network'
  | 'refused'
  | 'cancelled';

export class PublishError extends Error {
  constructor(
    message: string,
    readonly code: PublishErrorCode,
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

/** A minute: how long GitHub advises to wait when it does not say. */
const ONE_MINUTE_MS = 60_000;

/** The part of Octokit's RequestError read here. */
interface RequestFailure {
  readonly name?: string;
  readonly cause?: { readonly name?: string };
  readonly status?: number;
  readonly message?: string;
  readonly response?: { readonly headers?: Record<string, string | number | undefined>; readonly data?: unknown };
}

/** Where publishing was when a call failed. */
export interface PublishStep {
  /** The step, as in "while posting the review". */
  readonly doing: string;
  /** Whether anything had already changed on the pull request: then publishing again completes it. */
  readonly sentSoFar: boolean;
  readonly now?: Date;
}

/** A failed call to GitHub as a PublishError that says what to do next. */
export function publishErrorOf(error: unknown, { doing, sentSoFar, now = new Date() }: PublishStep): PublishError {
  if (error instanceof PublishError) return error;
  const failure = (typeof error === 'object' && error !== null ? error : {}) as RequestFailure;
  const again = sentSoFar
    ? ' Part of the review is on the pull request already: publish again to complete it; nothing is posted twice.'
    : ' Nothing was changed on the pull request.';
  // Octokit rethrows an abort as it is or, when it comes from another realm, wraps it as the cause.
  if (failure.name === 'AbortError' || failure.cause?.name === 'AbortError')
    return new PublishError(`Publishing was cancelled while ${doing}.${again}`, 'cancelled');
  if (!failure.response) {
    const reason = failure.message ? ` (${failure.message})` : '';
    return new PublishError(
      `GitHub could not be reached while ${doing}${reason}. Check the network.${again}`,
      'network',
    );
  }
  const headers = lowerCaseKeys(failure.response.headers ?? {});
  const status = failure.status ?? 0;
  const retryAt = rateLimitRetryTime(status, headers, now);
  if (retryAt) {
    return new PublishError(
      `GitHub's rate limit was reached while ${doing}. Try again after ${timeOfDay(retryAt)} (${untilText(retryAt, now)}).${again}`,
      'rate-limited',
    );
  }
  const detail = githubMessage(failure.response.data) ?? failure.message ?? `HTTP ${status}`;
  // A secondary limit may come without retry-after; GitHub's advice is then to wait a minute at least.
  if ((status === 403 || status === 429) && /secondary rate limit/i.test(detail)) {
    const retry = new Date(now.getTime() + ONE_MINUTE_MS);
    return new PublishError(
      `GitHub's rate limit was reached while ${doing}. Try again after ${timeOfDay(retry)} (${untilText(retry, now)}).${again}`,
      'rate-limited',
    );
  }
  if (status === 401)
    return new PublishError(
      `GitHub did not accept the sign-in (${detail}). Sign out of GitHub in VS Code's Accounts menu, sign in again, and publish again.${again}`,
      'not-signed-in',
    );
  if (status === 403 || status === 404) {
    return new PublishError(
      `GitHub refused ${doing} (${detail}): the signed-in account may lack access to this repository, or the sign-in lacks the "repo" scope.${again}`,
      'refused',
    );
  }
  if (status === 422 && /pending review/i.test(detail)) {
    return new PublishError(
      `GitHub refused ${doing} (${detail}): submit or delete your pending review on the pull request, then publish again.${again}`,
      'refused',
    );
  }
  if (status === 422)
    return new PublishError(
      `GitHub refused ${doing} (${detail}). If the pull request changed meanwhile, publish again.${again}`,
      'refused',
    );
  if (status >= 500)
    return new PublishError(`GitHub failed while ${doing} (HTTP ${status}). Try again later.${again}`, 'network');
  return new PublishError(`GitHub refused ${doing} (HTTP ${status}: ${detail}).${again}`, 'refused');
}

/**
 * When GitHub asks to wait: a secondary limit says so with retry-after (seconds) on a 403 or 429;
 * the primary limit, with no request left, with x-ratelimit-reset (epoch seconds).
 */
export function rateLimitRetryTime(status: number, headers: Record<string, string>, now: Date): Date | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && /^\d{1,7}$/.test(retryAfter.trim()))
    return new Date(now.getTime() + Number(retryAfter) * 1000);
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    // Without a believable reset time, GitHub's advice is to wait at least a minute.
    if (Number.isSafeInteger(reset) && reset > 0 && reset * 1000 < now.getTime() + 24 * 3_600_000)
      return new Date(Math.max(reset * 1000, now.getTime()));
    return new Date(now.getTime() + ONE_MINUTE_MS);
  }
  return status === 429 ? new Date(now.getTime() + ONE_MINUTE_MS) : undefined;
}

function lowerCaseKeys(headers: Record<string, string | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key.toLowerCase()] = String(value);
  return out;
}

/** GitHub's own words, `message` and the first `errors` entry, cut short. */
function githubMessage(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  const first = Array.isArray(errors) ? errors[0] : undefined;
  const extra = typeof first === 'string' ? first : typeof first?.message === 'string' ? first.message : undefined;
  const text = [typeof message === 'string' ? message : undefined, extra].filter(Boolean).join(': ');
  return text ? text.slice(0, 300) : undefined;
}

function timeOfDay(date: Date): string {
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function untilText(date: Date, now: Date): string {
  const minutes = Math.ceil((date.getTime() - now.getTime()) / ONE_MINUTE_MS);
  return minutes <= 1 ? 'in about a minute' : `in ${minutes} minutes`;
}
