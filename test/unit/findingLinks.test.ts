// Links inside a finding follow its code: the finding moved from 42 to 45, so its own link opens
// 45, another line of its file moves by 3, another file opens as written, and a finding whose code
// changed past recognition opens the written line and says so.

import { followFindingLink, type FollowedFinding } from '../../extension/src/findings/findingLinks';

const moved: FollowedFinding = {
  reference: 'src/example.ts:42-43',
  writtenLine: 42,
  writtenEndLine: 43,
  line: 45,
  endLine: 46,
  stale: false,
};

it("opens the finding's current range for a link to its own lines", () => {
  expect(followFindingLink('src/example.ts:42-43', moved)).toEqual({
    target: 'src/example.ts:45-46',
    codeChanged: false,
  });
  expect(followFindingLink('src/example.ts:42', moved)).toEqual({ target: 'src/example.ts:45-46', codeChanged: false });
  expect(followFindingLink('./src/example.ts#L43', moved)).toEqual({
    target: './src/example.ts:45-46',
    codeChanged: false,
  });
});

it('moves another line of the same file by as much as the finding moved', () => {
  expect(followFindingLink('src/example.ts:10', moved)).toEqual({ target: 'src/example.ts:13', codeChanged: false });
  expect(followFindingLink('src/example.ts:50-52', moved)).toEqual({
    target: 'src/example.ts:53-55',
    codeChanged: false,
  });
});

it('opens links to other files, and links without a line, as written', () => {
  expect(followFindingLink('src/other.ts:42', moved)).toEqual({ target: 'src/other.ts:42', codeChanged: false });
  expect(followFindingLink('src/example.ts', moved)).toEqual({ target: 'src/example.ts', codeChanged: false });
  expect(followFindingLink('https://example.com/src/example.ts:42', moved)).toEqual({
    target: 'https://example.com/src/example.ts:42',
    codeChanged: false,
  });
});

it('opens the written line, saying the code changed, when the finding lost its code', () => {
  expect(followFindingLink('src/example.ts:42', { ...moved, line: 42, endLine: 43, stale: true })).toEqual({
    target: 'src/example.ts:42',
    codeChanged: true,
  });
  expect(followFindingLink('src/other.ts:42', { ...moved, stale: true })).toEqual({
    target: 'src/other.ts:42',
    codeChanged: false,
  });
});

it('leaves a finding that did not move as it is', () => {
  const still = { ...moved, line: 42, endLine: 43 };
  expect(followFindingLink('src/example.ts:42-43', still)).toEqual({
    target: 'src/example.ts:42-43',
    codeChanged: false,
  });
  expect(followFindingLink('src/example.ts:7', still)).toEqual({ target: 'src/example.ts:7', codeChanged: false });
});
