// Which finding shown is which finding of an imported log: by the line its block starts on, then
// its fingerprint, then its place; each finding shown taken once, in the log's order.

import type { ImportedFindingParams } from '../../shared/protocol';
import { matchImported, type ShownForMatch } from '../../extension/src/exchange/importMatching';

const imported = (markdownLine: number, fingerprint: string, file = 'src/a.ts', line = 1): ImportedFindingParams => ({
  fingerprint,
  file,
  line,
  endLine: line,
  markdownLine,
  state: 'resolved',
  replies: [],
});

const shown = (
  id: string,
  fingerprint: string,
  reviewLine: number | undefined,
  file = '/ws/src/a.ts',
  line = 1,
): ShownForMatch => ({ id, fingerprint, reviewLine, file, line });

describe('matchImported', () => {
  it('matches by the line the block starts on first, whatever the fingerprint says', () => {
    const matches = matchImported([imported(3, 'x'), imported(5, 'y')], [shown('f-b', 'x', 5), shown('f-a', 'y', 3)]);
    expect(matches.map((m) => [m.imported.markdownLine, m.shownId])).toEqual([
      [3, 'f-a'],
      [5, 'f-b'],
    ]);
  });

  it('falls back to the fingerprint, then to the file and line, each finding shown taken once', () => {
    const logged = [
      imported(90, 'same'),
      imported(91, 'same'),
      imported(92, 'other', 'src/b.ts', 7),
      imported(93, 'nowhere', 'src/c.ts', 1),
    ];
    const onScreen = [
      shown('f-1', 'same', undefined),
      shown('f-2', 'same', undefined),
      shown('f-3', 'changed', undefined, '/ws/src/b.ts', 7),
    ];
    expect(matchImported(logged, onScreen).map((m) => [m.imported.markdownLine, m.shownId])).toEqual([
      [90, 'f-1'],
      [91, 'f-2'],
      [92, 'f-3'],
    ]);
  });

  it('matches a relative path only at a folder boundary', () => {
    expect(matchImported([imported(1, 'x', 'a.ts', 4)], [shown('f-1', 'y', undefined, '/ws/src/data.ts', 4)])).toEqual(
      [],
    );
    expect(
      matchImported([imported(1, 'x', './src/a.ts', 4)], [shown('f-1', 'y', undefined, '/ws/src/a.ts', 4)]),
    ).toHaveLength(1);
  });
});
