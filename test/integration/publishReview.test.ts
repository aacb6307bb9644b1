// Publishing a review to a pull request, end to end below VS Code: a real git repository, the
// real Octokit, and a stand-in for GitHub that checks every request and answer against GitHub's
// OpenAPI description and refuses a comment outside the diff as GitHub does.

import * as fs from 'fs';
import type { ExportedFinding } from '../../shared/exchange/exportedReview';
import { readBranchFacts } from '../../extension/src/publish/branchFacts';
import { parsePatch } from '../../extension/src/publish/diffHunks';
import { githubServerFor } from '../../extension/src/publish/githubServer';
import { createGitHubClient } from '../../extension/src/publish/octokitClient';
import { commentKey, bodySections } from '../../extension/src/publish/publishMarkdown';
import { PublishError } from '../../extension/src/publish/publishErrors';
import { parseRemoteUrl } from '../../extension/src/publish/remoteUrl';
import { publishReview, type PublishOutcome } from '../../extension/src/publish/reviewPublisher';
import { FakeGitHub } from '../support/github/fakeGitHub';
import { makeFixtureRepository, type FixtureRepository } from '../support/github/fixtureRepository';
import { finding, reviewOf } from '../unit/publish/publishFixtures';

let repo: FixtureRepository;
let github: FakeGitHub;

beforeEach(async () => {
  repo = makeFixtureRepository();
  github = new FakeGitHub('octo', 'app');
  await github.start();
  github.pulls.push({ number: 12, state: 'open', headRef: 'feature', headSha: repo.headSha, files: repo.files });
});

afterEach(async () => {
  await github.stop();
  repo.remove();
  // Every request publishing sent, and every answer the stand-in gave, is one GitHub's description allows.
  expect(github.violations).toEqual([]);
});

async function publish(
  findings: readonly ExportedFinding[],
  token = 'gho_fake_token',
  options: { enterpriseUri?: string; signal?: AbortSignal } = {},
): Promise<PublishOutcome> {
  const facts = await readBranchFacts(repo.root);
  const repository = parseRemoteUrl(facts.remoteUrl);
  if (!repository) throw new Error(`fixture remote ${facts.remoteUrl} not parsed`);
  const choice = githubServerFor(repository.host, { testApiUrl: github.url, enterpriseUri: options.enterpriseUri });
  if ('refusal' in choice) throw new Error(choice.refusal);
  const client = await createGitHubClient({
    token,
    apiBaseUrl: choice.server.apiBaseUrl,
    userAgent: 'redline-test',
    signal: options.signal,
  });
  return publishReview({
    review: reviewOf(findings, { repositoryRoot: repo.root }),
    facts,
    repository,
    server: choice.server,
    client,
    login: 'octocat',
  });
}

async function refusal(findings: readonly ExportedFinding[], token?: string): Promise<PublishError> {
  const error = await publish(findings, token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PublishError);
  return error as PublishError;
}

/** Every comment on the pull request lies within one hunk of its file's patch, on the new side. */
function expectEveryCommentInAHunk(): void {
  expect(github.outsideDiff).toEqual([]);
  for (const comment of github.comments) {
    const file = github.pulls[0].files.find((f) => f.filename === comment.path);
    const hunks = parsePatch(file?.patch ?? '') ?? [];
    const start = comment.startLine ?? comment.line;
    expect({
      at: `${comment.path}:${start}-${comment.line}`,
      inHunk: hunks.some((h) => h.right && h.right.start <= start && comment.line <= h.right.end),
    }).toEqual({
      at: `${comment.path}:${start}-${comment.line}`,
      inHunk: true,
    });
  }
}

const inDiff = finding('src/app.ts', 10, 'Changed constant is never read');
const multiLine = finding('src/app.ts', 10, 'The three new lines repeat each other', { endLine: 12, severity: 'nit' });
const renamed = finding('src/renamed.ts', 5, 'Renamed constant breaks importers', { severity: 'risk' });
const outsideHunk = finding('src/app.ts', 22, 'Old code nearby has the same bug');
const unchangedFile = finding('src/untouched.ts', 3, 'Untouched file could use the helper', { severity: 'suggestion' });
const binary = finding('docs/logo.png', 1, 'Logo is not optimised', { severity: 'nit' });
const all = [inDiff, multiLine, renamed, outsideHunk, unchangedFile, binary];

test('first publish: the findings on the diff become comments, the rest go in the body with their links', async () => {
  const outcome = await publish(all);
  expect(outcome).toMatchObject({ pullRequest: 12, addedComments: 3, addedInBody: 3, changed: 0, left: 0, leftOut: 0 });
  expect(github.reviews).toHaveLength(1);
  expect(outcome.url).toBe(`https://github.com/octo/app/pull/12#pullrequestreview-${github.reviews[0].id}`);
  const posted = github.writes.find((r) => r.operationId === 'pulls/create-review')?.body as {
    event: string;
    commit_id: string;
    comments: unknown[];
  };
  expect(posted.event).toBe('COMMENT');
  expect(posted.commit_id).toBe(repo.headSha);
  expect(github.comments.map((c) => [c.path, c.startLine, c.line, c.side, commentKey(c.body)])).toEqual([
    ['src/app.ts', undefined, 10, 'RIGHT', inDiff.fingerprint],
    ['src/app.ts', 10, 12, 'RIGHT', multiLine.fingerprint],
    ['src/renamed.ts', undefined, 5, 'RIGHT', renamed.fingerprint],
  ]);
  expectEveryCommentInAHunk();
  const body = github.reviews[0].body;
  expect(body).toContain('**Redline review** by claude, revision 1: 6 findings (2 bug, 1 risk, 1 suggestion, 2 nit).');
  expect(body).toContain('3 comments on the diff; 3 below');
  expect([...bodySections(body).keys()]).toEqual([
    outsideHunk.fingerprint,
    unchangedFile.fingerprint,
    binary.fingerprint,
  ]);
  expect(body).toContain(
    `(https://github.com/octo/app/blob/${repo.headSha}/src/app.ts#L22)** · outside the lines this pull request changes`,
  );
  expect(body).toContain(
    `(https://github.com/octo/app/blob/${repo.headSha}/src/untouched.ts#L3)** · in a file this pull request does not change`,
  );
  expect(body).toContain('in a file GitHub shows no diff for (binary or too large)');
});

test('publishing again: nothing twice; a changed finding is updated in place, a new one added in a new review', async () => {
  await publish(all);
  const again = await publish(all);
  expect(again).toMatchObject({
    addedComments: 0,
    addedInBody: 0,
    changed: 0,
    left: 6,
    url: 'https://github.com/octo/app/pull/12',
  });
  expect(github.writes.map((r) => r.operationId)).toEqual(['pulls/create-review']);

  const added = finding('src/added.ts', 2, 'Missing newline at the end', { severity: 'nit' });
  const changed = [
    {
      ...inDiff,
      state: 'accepted' as const,
      replies: [{ text: 'Will fix in the next push', at: '2026-11-27T08:00:00Z' }],
    },
    multiLine,
    renamed,
    { ...outsideHunk, markdown: '**bug**: Old code nearby has the same bug, at line 22 and 23' },
    unchangedFile,
    binary,
    added,
  ];
  const third = await publish(changed);
  expect(third).toMatchObject({ addedComments: 1, addedInBody: 0, changed: 2, left: 4 });
  expect(github.writes.map((r) => r.operationId)).toEqual([
    'pulls/create-review',
    'pulls/create-review',
    'pulls/update-review-comment',
    'pulls/update-review',
  ]);
  const keys = github.comments.map((c) => commentKey(c.body));
  expect(new Set(keys).size).toBe(keys.length);
  expect(github.comments).toHaveLength(4);
  expect(github.comments[0].body).toContain('_Accepted._');
  expect(github.comments[0].body).toContain('> **Reply** (2026-11-27): Will fix in the next push');
  expect(github.reviews[0].body).toContain('at line 22 and 23');
  expect(github.reviews[1].body).toContain('1 more finding since the earlier review (1 nit)');
  expectEveryCommentInAHunk();
});

test('a failure part-way: the message says so, and publishing again completes without duplicates', async () => {
  await publish(all);
  const added = finding('src/added.ts', 1, 'Exported constant is unused');
  const next = [
    { ...inDiff, state: 'resolved' as const },
    { ...multiLine, state: 'wont-fix' as const },
    renamed,
    outsideHunk,
    unchangedFile,
    binary,
    added,
  ];
  // The network goes down after the new review is posted, at the first comment's update.
  github.faults.push({ matches: (_, op) => op === 'pulls/update-review-comment', answer: 'cut' });
  const error = await refusal(next);
  expect(error.code).toBe('network');
  expect(error.message).toMatch(
    /GitHub could not be reached while updating a comment .*publish again to complete it; nothing is posted twice/,
  );
  expect(github.reviews).toHaveLength(2);

  const completed = await publish(next);
  expect(completed).toMatchObject({ addedComments: 0, changed: 2, left: 5 });
  expect(github.reviews).toHaveLength(2);
  expect(github.comments).toHaveLength(4);
  expect(github.comments.map((c) => c.body.match(/_(Resolved|Won't fix)\._/)?.[1])).toEqual([
    'Resolved',
    "Won't fix",
    undefined,
    undefined,
  ]);
});

test('a failure before anything was sent: nothing changed, and publishing again posts the review once', async () => {
  github.faults.push({ matches: (_, op) => op === 'pulls/create-review', answer: 'cut' });
  const error = await refusal(all);
  expect(error.message).toMatch(/while posting the review .*Nothing was changed on the pull request/);
  expect(github.reviews).toHaveLength(0);
  await publish(all);
  expect(github.reviews).toHaveLength(1);
  expect(github.comments).toHaveLength(3);
});

test('no comment GitHub would refuse: a finding on every line of every file is placed without a 422', async () => {
  const everywhere: ExportedFinding[] = [];
  for (const [file, count] of [
    ['src/app.ts', 42],
    ['src/renamed.ts', 20],
    ['src/added.ts', 2],
    ['src/untouched.ts', 10],
  ] as const) {
    for (let line = 1; line <= count; line++) {
      everywhere.push(finding(file, line, `Line ${line} of ${file}: finding number ${everywhere.length}`));
      everywhere.push(
        finding(file, line, `Two lines from ${line} of ${file}: finding number ${everywhere.length}`, {
          endLine: line + 1,
        }),
      );
    }
  }
  const outcome = await publish(everywhere);
  expectEveryCommentInAHunk();
  expect(outcome.addedComments).toBe(github.comments.length);
  expect(outcome.addedComments + outcome.addedInBody + outcome.leftOut).toBe(everywhere.length);
  // Every line of src/added.ts and of the two hunks of src/app.ts takes its comment.
  expect(github.comments.filter((c) => c.path === 'src/added.ts' && c.startLine === undefined)).toHaveLength(2);
});

test.each([
  ['closed', false, /#12, is closed: GitHub takes no new review on it/],
  ['merged', true, /#12, is merged/],
])('a %s pull request is refused before anything is sent', async (_, merged, message) => {
  Object.assign(github.pulls[0], { state: 'closed', merged });
  const error = await refusal(all);
  expect(error).toMatchObject({ code: 'pull-request-closed', message: expect.stringMatching(message) });
  expect(github.writes).toEqual([]);
});

test('no pull request for the branch', async () => {
  github.pulls.length = 0;
  const error = await refusal(all);
  expect(error).toMatchObject({
    code: 'no-pull-request',
    message: 'octo/app has no pull request for the branch "feature": open one, then publish again.',
  });
  expect(github.writes).toEqual([]);
});

test('a branch that is not pushed, or has commits the pull request lacks, is refused before GitHub is asked', async () => {
  repo.git('checkout', '-q', '-b', 'local-only');
  expect(await refusal(all)).toMatchObject({
    code: 'not-pushed',
    message: expect.stringContaining('"local-only" is not pushed'),
  });
  repo.git('checkout', '-q', 'feature');
  repo.git('commit', '-q', '--allow-empty', '-m', 'not pushed');
  expect(await refusal(all)).toMatchObject({
    code: 'head-mismatch',
    message: expect.stringContaining('your branch has commits that are not pushed: push them'),
  });
  expect(github.writes).toEqual([]);
});

test("a file with changes not in the pull request takes no comment: its lines may not be the pull request's", async () => {
  repo.git('checkout', '-q', 'feature');
  fs.appendFileSync(`${repo.root}/src/app.ts`, 'const local = 1;\n');
  await publish([inDiff, renamed]);
  expect(github.comments.map((c) => c.path)).toEqual(['src/renamed.ts']);
  expect(github.reviews[0].body).toContain('in a file with changes that are not in the pull request');
});

test("GitHub's primary rate limit: the message gives the time to try again, and nothing is sent", async () => {
  const reset = Math.floor(Date.now() / 1000) + 30 * 60;
  github.faults.push({
    matches: (_, op) => op === 'pulls/list',
    answer: {
      status: 403,
      headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: {
        message: 'API rate limit exceeded for user ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      },
    },
  });
  const error = await refusal(all);
  expect(error.code).toBe('rate-limited');
  expect(error.message).toMatch(
    /rate limit was reached while finding the pull request\. Try again after .+ \(in (30|31) minutes\)\. Nothing was changed/,
  );
  expect(github.writes).toEqual([]);
});

test('a secondary rate limit on the review itself: retry-after is the wait, and publishing later completes it', async () => {
  github.faults.push({
    matches: (_, op) => op === 'pulls/create-review',
    answer: {
      status: 403,
      headers: { 'retry-after': '120' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      },
    },
  });
  const error = await refusal(all);
  expect(error.message).toMatch(
    /rate limit was reached while posting the review\. Try again after .+ \(in 2 minutes\)/,
  );
  expect(github.reviews).toHaveLength(0);
  await publish(all);
  expect(github.reviews).toHaveLength(1);
});

test('a 429 without retry-after waits a minute', async () => {
  github.faults.push({
    matches: (_, op) => op === 'pulls/list-files',
    answer: { status: 429, body: { message: 'Too Many Requests' } },
  });
  expect((await refusal(all)).message).toMatch(/Try again after .+ \(in about a minute\)/);
});

test('a sign-in GitHub does not accept', async () => {
  const error = await refusal(all, 'gho_expired');
  expect(error).toMatchObject({
    code: 'not-signed-in',
    message: expect.stringContaining('GitHub did not accept the sign-in (Bad credentials)'),
  });
  expect(github.reviews).toHaveLength(0);
});

test('a pull request of many files is read page by page', async () => {
  for (let i = 0; i < 230; i++) github.pulls[0].files.push({ filename: `generated/file${i}.bin`, status: 'added' });
  await publish([inDiff, finding('generated/file229.bin', 1, 'Generated file checked in')]);
  expect(
    github.requests
      .filter((r) => r.operationId === 'pulls/list-files')
      .map((r) => new URLSearchParams(r.query).get('page') ?? '1'),
  ).toEqual(['1', '2', '3']);
  expect(github.reviews[0].body).toContain('generated/file229.bin#L1)** · in a file GitHub shows no diff for');
});

test('a GitHub Enterprise remote: its links point at the Enterprise server', async () => {
  repo.git('remote', 'set-url', 'origin', 'git@ghe.example.com:octo/app.git');
  await publish([inDiff, outsideHunk], 'gho_fake_token', { enterpriseUri: 'https://ghe.example.com' });
  expect(github.reviews[0].body).toContain(`(https://ghe.example.com/octo/app/blob/${repo.headSha}/src/app.ts#L22)`);
  expect(github.comments).toHaveLength(1);
});

test('cancelled by the user: a message that says so, and nothing sent', async () => {
  const abort = new AbortController();
  abort.abort();
  const error = await publish(all, 'gho_fake_token', { signal: abort.signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({
    code: 'cancelled',
    message: expect.stringContaining('Publishing was cancelled while finding the pull request. Nothing was changed'),
  });
  expect(github.writes).toEqual([]);
});
