import { fileDiffOf } from '../../../extension/src/publish/diffHunks';
import { placeFindings } from '../../../extension/src/publish/findingPlacement';
import { finding, reviewOf } from './publishFixtures';

const files = [
  fileDiffOf({ filename: 'src/a.ts', status: 'modified', patch: '@@ -8,4 +8,6 @@\n a\n+b\n+c\n d\n e\n f' }),
  fileDiffOf({
    filename: 'src/b.ts',
    status: 'renamed',
    previous_filename: 'src/old-b.ts',
    patch: '@@ -1,2 +1,2 @@\n-x\n+y\n z',
  }),
  fileDiffOf({ filename: 'logo.png', status: 'added' }),
];

function place(findings: ReturnType<typeof finding>[], changedLocally: string[] = []) {
  const review = reviewOf(findings);
  return placeFindings({
    review,
    files,
    pathOf: (f) => (f.file.startsWith('../') ? undefined : f.file),
    changedLocally: new Set(changedLocally),
  });
}

test('a finding inside one hunk is a comment on its lines, on the new side', () => {
  const { placements } = place([
    finding('src/a.ts', 9, 'one line'),
    finding('src/a.ts', 8, 'many lines', { endLine: 13 }),
    finding('src/b.ts', 1, 'renamed'),
  ]);
  expect(placements.map((p) => (p.kind === 'comment' ? [p.item.path, p.startLine, p.line] : p.kind))).toEqual([
    ['src/a.ts', undefined, 9],
    ['src/a.ts', 8, 13],
    ['src/b.ts', undefined, 1],
  ]);
});

test('every other finding goes in the body, saying why', () => {
  const { placements, outsideRepository } = place(
    [
      finding('src/a.ts', 14, 'after the hunk'),
      finding('src/a.ts', 7, 'straddles the hunk', { endLine: 9 }),
      finding('src/c.ts', 3, 'file the pull request leaves alone'),
      finding('logo.png', 1, 'binary'),
      finding('src/a.ts', 9, 'stale', { stale: true }),
      finding('src/b.ts', 1, 'edited since the push'),
      finding('../elsewhere.ts', 1, 'outside'),
    ],
    ['src/b.ts'],
  );
  expect(placements.map((p) => (p.kind === 'body' ? p.reason : 'comment'))).toEqual([
    'outside-diff',
    'outside-diff',
    'file-not-changed',
    'no-patch',
    'stale',
    'uncommitted',
  ]);
  expect(outsideRepository.map((f) => f.title)).toEqual(['outside']);
});

test('findings that share a fingerprint get keys of their own, from their own text, whatever is beside them', () => {
  const late = finding('src/a.ts', 12, 'same words');
  const early = finding('src/a.ts', 9, 'same words');
  const { placements } = place([late, early]);
  expect(late.fingerprint).toBe(early.fingerprint);
  const keys = placements.map((p) => p.item.key);
  expect(keys).toEqual([expect.stringMatching(new RegExp(`^${late.fingerprint}-[0-9a-f]{10}$`)), expect.any(String)]);
  expect(new Set(keys).size).toBe(2);
  // The later one alone (the earlier fixed) keeps the fingerprint as its key, and knows its own key as an earlier one.
  const [alone] = place([late]).placements;
  expect(alone.item.key).toBe(late.fingerprint);
  expect(alone.item.earlierKeys).toEqual([keys[0]]);
  // Nothing about a finding's key depends on the other's place: reorder them and each keeps its key.
  expect(place([early, late]).placements.map((p) => p.item.key)).toEqual([keys[1], keys[0]]);
});
