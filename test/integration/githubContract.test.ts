// The stand-in for GitHub is only as good as its checks: a request or answer that GitHub's
// description does not allow must be caught.

import { OpenApiContract } from '../support/github/openApiContract';

const contract = new OpenApiContract();
const createReview = contract.operation('POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews');
const listPulls = contract.operation('GET', '/repos/{owner}/{repo}/pulls');
const params = { owner: 'octo', repo: 'app', pull_number: '12' };

test('a review as publishing sends it is allowed', () => {
  const body = {
    commit_id: 'abc',
    event: 'COMMENT',
    body: 'x',
    comments: [{ path: 'a.ts', line: 3, side: 'RIGHT', start_line: 1, start_side: 'RIGHT', body: 'y' }],
  };
  expect(contract.checkRequest(createReview, params, new URLSearchParams(), body)).toEqual([]);
});

test.each([
  [
    'a field the description does not name',
    { event: 'COMMENT', body: 'x', severity: 'bug' },
    /must NOT have additional properties \(severity\)/,
  ],
  [
    'a comment field the description does not name',
    { event: 'COMMENT', body: 'x', comments: [{ path: 'a', line: 1, body: 'y', anchor: 2 }] },
    /additional properties \(anchor\)/,
  ],
  [
    'a comment without its path',
    { event: 'COMMENT', body: 'x', comments: [{ line: 1, body: 'y' }] },
    /must have required property 'path'/,
  ],
  ['an event GitHub does not know', { event: 'SHOUT', body: 'x' }, /event must be equal to one of the allowed values/],
  [
    'a line that is not a number',
    { event: 'COMMENT', body: 'x', comments: [{ path: 'a', line: '3', body: 'y' }] },
    /line must be integer/,
  ],
])('refused: %s', (_, body, problem) => {
  expect(contract.checkRequest(createReview, params, new URLSearchParams(), body).join('\n')).toMatch(problem);
});

test('query parameters: one the description does not list, or of the wrong type, is caught', () => {
  expect(
    contract.checkRequest(
      listPulls,
      { owner: 'o', repo: 'r' },
      new URLSearchParams({ head: 'o:b', state: 'all' }),
      undefined,
    ),
  ).toEqual([]);
  expect(
    contract.checkRequest(listPulls, { owner: 'o', repo: 'r' }, new URLSearchParams({ branch: 'b' }), undefined),
  ).toEqual(['pulls/list: query parameter "branch" is not in GitHub\'s description']);
  expect(
    contract
      .checkRequest(listPulls, { owner: 'o', repo: 'r' }, new URLSearchParams({ state: 'merged' }), undefined)
      .join('\n'),
  ).toMatch(/allowed values/);
  expect(
    contract
      .checkRequest(listPulls, { owner: 'o', repo: 'r' }, new URLSearchParams({ per_page: 'many' }), undefined)
      .join('\n'),
  ).toMatch(/must be integer/);
});

test("an answer missing what GitHub always sends is caught, and GitHub's own example is not taken on trust", () => {
  const review = contract.example('pull-request-review');
  expect(contract.checkResponse(createReview, 200, review)).toEqual([]);
  const { html_url: _, ...withoutUrl } = review;
  expect(contract.checkResponse(createReview, 200, withoutUrl).join('\n')).toMatch(
    /must have required property 'html_url'/,
  );
  expect(contract.checkResponse(createReview, 200, { ...review, user: null, body: null }).join('\n')).toMatch(
    /body must be string/,
  );
  expect(contract.checkResponse(listPulls, 200, contract.example('pull-request-simple-items')).join('\n')).toMatch(
    /requested_teams\/0 must have required property 'type'/,
  );
  expect(contract.checkResponse(listPulls, 418, { message: 'teapot' })).toEqual([]);
  expect(contract.checkResponse(listPulls, 403, { message: 1 }).join('\n')).toMatch(/basic-error.*must be string/);
});
