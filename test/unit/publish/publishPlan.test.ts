import { fileDiffOf } from '../../../extension/src/publish/diffHunks';
import { placeFindings } from '../../../extension/src/publish/findingPlacement';
import {
  REVIEW_MARKER,
  bodySection,
  bodySections,
  commentKey,
  commentText,
  inert,
} from '../../../extension/src/publish/publishMarkdown';
import { planPublish, type ExistingComment, type ExistingReview } from '../../../extension/src/publish/publishPlan';
import { composeReviewBody } from '../../../extension/src/publish/reviewBody';
import { finding, reviewOf } from './publishFixtures';

const files = [
  fileDiffOf({ filename: 'src/a.ts', status: 'modified', patch: '@@ -1,5 +1,5 @@\n a\n-b\n+b2\n c\n d\n e' }),
];
const linkOf = () => ({ url: 'https://github.com/o/r/blob/abc1234/src/a.ts#L40', label: 'src/a.ts#L40' });

function plan(
  findings: ReturnType<typeof finding>[],
  comments: ExistingComment[] = [],
  reviews: ExistingReview[] = [],
) {
  const { placements } = placeFindings({
    review: reviewOf(findings),
    files,
    pathOf: (f) => f.file,
    changedLocally: new Set(),
  });
  return { placements, plan: planPublish({ placements, comments, reviews, linkOf }) };
}

test('the first publish adds every finding: the ones on the diff as comments, the rest in the body', () => {
  const { plan: first } = plan([finding('src/a.ts', 2, 'in the diff'), finding('src/a.ts', 40, 'outside')]);
  expect(first.newComments.map((c) => c.placement.item.finding.title)).toEqual(['in the diff']);
  expect(first.newSections.map((s) => s.placement.item.finding.title)).toEqual(['outside']);
  expect(first.commentUpdates).toEqual([]);
  expect(first.reviewUpdates).toEqual([]);
});

test('publishing again: the same text is left, a changed one updated in place, a new one added', () => {
  const kept = finding('src/a.ts', 2, 'kept');
  const changed = finding('src/a.ts', 3, 'changed');
  const outside = finding('src/a.ts', 40, 'outside');
  const { plan: first } = plan([kept, changed, outside]);
  const comments = first.newComments.map((c, i) => ({ id: 100 + i, body: c.body.replace(/\n/g, '\r\n') }));
  const body = composeReviewBody({
    revision: 1,
    addsToEarlier: false,
    commentFindings: [],
    sections: first.newSections.map((s) => ({ finding: s.placement.item.finding, section: s.section })),
    outsideRepository: 0,
  }).body;
  const reviews = [{ id: 7, body }];

  const fresh = finding('src/a.ts', 4, 'new');
  const { plan: again } = plan(
    [kept, { ...changed, state: 'resolved' }, { ...outside, markdown: '**bug**: outside, said better' }, fresh],
    comments,
    reviews,
  );
  expect(again.unchanged).toEqual([kept.fingerprint]);
  expect(again.commentUpdates).toEqual([
    { id: 101, key: changed.fingerprint, body: expect.stringContaining('_Resolved._') },
  ]);
  expect(again.reviewUpdates).toEqual([
    { id: 7, keys: [outside.fingerprint], body: expect.stringContaining('outside, said better') },
  ]);
  expect(bodySections(again.reviewUpdates[0].body).size).toBe(1);
  expect(again.newComments.map((c) => c.placement.item.finding.title)).toEqual(['new']);
  expect(again.newSections).toEqual([]);
});

test('a new push alone changes no section: the link is not the finding', () => {
  const outside = finding('src/a.ts', 40, 'outside');
  const { placements } = plan([outside]);
  const body =
    placements[0].kind === 'body'
      ? bodySection(placements[0].item, 'outside-diff', {
          url: 'https://github.com/o/r/blob/0000000/src/a.ts#L40',
          label: 'src/a.ts#L40',
        })
      : '';
  const { plan: again } = plan([outside], [], [{ id: 1, body: `${REVIEW_MARKER}\n\n${body}` }]);
  expect(again.unchanged).toEqual([outside.fingerprint]);
});

test("the assistant's text cannot pass for a marker, nor hide what follows it", () => {
  const other = finding('src/a.ts', 3, 'victim');
  const hostile = finding('src/a.ts', 2, 'hostile', {
    markdown: `**bug**: x\n<!-- redline:finding ${other.fingerprint} -->\n<!-- hide`,
  });
  const { placements } = plan([hostile]);
  const text = commentText(placements[0].item);
  expect(commentKey(text)).toBe(hostile.fingerprint);
  expect(text).not.toContain(`<!-- redline:finding ${other.fingerprint}`);
  // Reads the same, opens no comment.
  expect(text).toContain('<!\u2060-- hide');
  expect(text).not.toMatch(/<!--(?! redline:finding [0-9a-f]+ -->$)/m);
  // Someone else's comment with a marker is not in the list the publisher passes (it keeps only the user's own).
  expect(commentKey('a comment\n<!-- redline:finding zz -->')).toBeUndefined();
});

test("an @mention in the assistant's text notifies no one; code and e-mail addresses keep their text", () => {
  const text = inert('ask @octocat or @org/team, not me@example.com; `@Decorator()`\n```ts\n@Injectable()\n```');
  expect(text).toBe(
    'ask @\u2060octocat or @\u2060org/team, not me@example.com; `@Decorator()`\n```ts\n@Injectable()\n```',
  );
});

test("fixing one of two findings that share a title leaves the other with its own comment, never the fixed one's", () => {
  const first = finding('src/a.ts', 2, 'same words', { markdown: '**bug**: same words `src/a.ts:2`' });
  const second = finding('src/a.ts', 3, 'same words', { markdown: '**bug**: same words `src/a.ts:3`' });
  const { plan: published } = plan([first, second]);
  const comments = published.newComments.map((c, i) => ({ id: 10 + i, body: c.body }));
  expect(comments.map((c) => c.body)).toEqual([
    expect.stringContaining('src/a.ts:2'),
    expect.stringContaining('src/a.ts:3'),
  ]);
  // The first is fixed and gone from the review: the second updates its own comment (id 11), or nothing.
  const { plan: again } = plan([{ ...second, state: 'resolved' }], comments);
  expect(again.commentUpdates).toEqual([
    { id: 11, key: second.fingerprint, body: expect.stringContaining('src/a.ts:3') },
  ]);
  expect(again.newComments).toEqual([]);
  // And once updated, publishing again finds it by its new key and changes nothing.
  const updated = comments.map((c) => (c.id === 11 ? { id: 11, body: again.commentUpdates[0].body } : c));
  const { plan: third } = plan([{ ...second, state: 'resolved' }], updated);
  expect(third.unchanged).toEqual([second.fingerprint]);
  expect(third.commentUpdates).toEqual([]);
});

test('a comment published before findings were keyed by their own text is found by the finding whose text it holds', () => {
  const first = finding('src/a.ts', 2, 'same words', { markdown: '**bug**: same words `src/a.ts:2`' });
  const second = finding('src/a.ts', 3, 'same words', { markdown: '**bug**: same words `src/a.ts:3`' });
  // As an earlier version wrote them: the fingerprint, then "-2", by the order of their lines.
  const comments = [
    { id: 1, body: `**bug**: same words \`src/a.ts:3\`\n\n<!-- redline:finding ${second.fingerprint}-2 -->` },
    { id: 2, body: `**bug**: same words \`src/a.ts:2\`\n\n<!-- redline:finding ${first.fingerprint} -->` },
  ];
  const { plan: again } = plan([second, first], comments);
  // The plain fingerprint's comment goes to the finding it holds the text of; the other is new (its old key was a rank).
  expect(again.commentUpdates.map((u) => [u.id, u.body.includes('src/a.ts:2')])).toEqual([[2, true]]);
  expect(again.newComments.map((c) => c.placement.item.finding.line)).toEqual([3]);
});

test("a body past GitHub's limit keeps what fits and says how many are left for the next publish", () => {
  const sections = Array.from({ length: 40 }, (_, i) => ({
    finding: finding('src/a.ts', 100 + i, `long ${i}`),
    section: `<!-- redline:finding ${'a'.repeat(32)} -->\n${'x'.repeat(3000)}\n<!-- /redline:finding -->`,
  }));
  const { body, sectionsShown } = composeReviewBody({
    revision: 2,
    addsToEarlier: false,
    commentFindings: [],
    sections,
    outsideRepository: 1,
  });
  expect(body.length).toBeLessThanOrEqual(65_536);
  expect(sectionsShown).toBeGreaterThan(10);
  expect(sectionsShown).toBeLessThan(40);
  expect(body).toContain(`${40 - sectionsShown} more findings did not fit`);
  expect(body).toContain('1 finding on files outside the repository is left out.');
  expect(body.startsWith(REVIEW_MARKER)).toBe(true);
});

test('the summary counts findings by severity, most severe first', () => {
  const { body } = composeReviewBody({
    revision: 3,
    assistant: 'claude',
    addsToEarlier: false,
    commentFindings: [finding('a', 1, 'x', { severity: 'nit' }), finding('a', 2, 'y', { severity: 'blocking' })],
    sections: [{ finding: finding('a', 3, 'z', { severity: null }), section: 's' }],
    outsideRepository: 0,
  });
  expect(body).toContain('**Redline review** by claude, revision 3: 3 findings (1 blocking, 1 nit, 1 other).');
  expect(body).toContain('2 comments on the diff; 1 below, which GitHub would not take as comments on lines.');
});
