import { outcomeText } from '../../../extension/src/publish/outcomeText';
import { PublishError, publishErrorOf, rateLimitRetryTime } from '../../../extension/src/publish/publishErrors';

const now = new Date('2026-11-27T08:00:00Z');
const failure = (status: number, headers: Record<string, string> = {}, data: unknown = { message: 'Nope' }) => ({
  name: 'HttpError',
  status,
  message: 'Nope',
  response: { headers, data },
});

test('the primary rate limit: no request left, until x-ratelimit-reset', () => {
  const reset = String(now.getTime() / 1000 + 25 * 60);
  expect(
    rateLimitRetryTime(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, now)?.toISOString(),
  ).toBe('2026-11-27T08:25:00.000Z');
  const error = publishErrorOf(failure(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), {
    doing: 'posting the review',
    sentSoFar: false,
    now,
  });
  expect(error).toMatchObject({ code: 'rate-limited' });
  expect(error.message).toMatch(
    /rate limit was reached while posting the review\. Try again after .+ \(in 25 minutes\)\. Nothing was changed/,
  );
});

test('a secondary rate limit: retry-after on a 403 or a 429', () => {
  expect(rateLimitRetryTime(429, { 'retry-after': '120' }, now)?.toISOString()).toBe('2026-11-27T08:02:00.000Z');
  expect(rateLimitRetryTime(403, { 'retry-after': '30', 'x-ratelimit-remaining': '4000' }, now)?.toISOString()).toBe(
    '2026-11-27T08:00:30.000Z',
  );
  expect(rateLimitRetryTime(429, {}, now)?.toISOString()).toBe('2026-11-27T08:01:00.000Z');
  // A 403 with requests left is a refusal, not a limit.
  expect(rateLimitRetryTime(403, { 'x-ratelimit-remaining': '4000' }, now)).toBeUndefined();
  expect(
    publishErrorOf(failure(403, { 'x-ratelimit-remaining': '4000' }), {
      doing: 'posting the review',
      sentSoFar: false,
      now,
    }),
  ).toMatchObject({ code: 'refused' });
});

test("a secondary limit without retry-after waits a minute; a pending review of the user's own is named", () => {
  const limited = publishErrorOf(
    failure(
      403,
      {},
      { message: 'You have exceeded a secondary rate limit and have been temporarily blocked from content creation.' },
    ),
    { doing: 'posting the review', sentSoFar: false, now },
  );
  expect(limited).toMatchObject({ code: 'rate-limited', message: expect.stringContaining('(in about a minute)') });
  const pending = publishErrorOf(
    failure(
      422,
      {},
      { message: 'Unprocessable Entity', errors: ['User can only have one pending review per pull request'] },
    ),
    { doing: 'posting the review', sentSoFar: false, now },
  );
  expect(pending.message).toContain('submit or delete your pending review on the pull request, then publish again');
});

test('no answer at all is a network failure; after something was sent, publishing again completes it', () => {
  const error = publishErrorOf(
    { name: 'HttpError', status: 500, message: 'fetch failed' },
    { doing: 'updating a comment', sentSoFar: true, now },
  );
  expect(error.code).toBe('network');
  expect(error.message).toContain('GitHub could not be reached while updating a comment (fetch failed)');
  expect(error.message).toContain('publish again to complete it; nothing is posted twice');
});

test("GitHub's own words come with a refusal", () => {
  const error = publishErrorOf(
    failure(422, {}, { message: 'Unprocessable Entity', errors: ['Line could not be resolved'] }),
    { doing: 'posting the review', sentSoFar: false, now },
  );
  expect(error.message).toContain(
    'GitHub refused posting the review (Unprocessable Entity: Line could not be resolved)',
  );
  expect(publishErrorOf(failure(401), { doing: 'x', sentSoFar: false, now }).code).toBe('not-signed-in');
  const own = new PublishError('mine', 'no-pull-request');
  expect(publishErrorOf(own, { doing: 'x', sentSoFar: false, now })).toBe(own);
});

test('the outcome says what was added, changed and left', () => {
  expect(
    outcomeText({ url: 'u', pullRequest: 12, addedComments: 3, addedInBody: 1, changed: 0, left: 0, leftOut: 0 }),
  ).toBe("pull request #12: added 3 comments and 1 finding in the review's body.");
  expect(
    outcomeText({ url: 'u', pullRequest: 12, addedComments: 0, addedInBody: 0, changed: 2, left: 4, leftOut: 1 }),
  ).toBe(
    "pull request #12: updated 2 findings whose text changed; left 4 findings already there unchanged; left out 1 finding (outside the repository, or past the body's length limit).",
  );
  expect(
    outcomeText({ url: 'u', pullRequest: 1, addedComments: 0, addedInBody: 0, changed: 0, left: 0, leftOut: 0 }),
  ).toBe('pull request #1: nothing to change.');
});
