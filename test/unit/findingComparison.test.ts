// "Compare with previous": which findings are new, fixed, still open or declined.

import type { FindingState } from '../../shared/findingTerms';
import { compareFindings, type ComparableFinding } from '../../extension/src/review/findingComparison';

const finding = (id: string, title: string, file = 'src/a.ts', reference = `${file}:1`): ComparableFinding => ({
  id,
  severity: 'bug',
  title,
  reference,
  file,
});

const states = (map: Record<string, FindingState>) => (id: string) => map[id] ?? 'open';
const ids = (list: readonly { id: string }[]) => list.map((f) => f.id);

describe('compareFindings', () => {
  it('sorts findings into new, fixed (gone or resolved), still open and declined', () => {
    const previous = [
      finding('f-kept', 'Off by one'),
      finding('f-gone', 'Leaks a handle'),
      finding('f-done', 'Null check'),
      finding('f-no', 'Style'),
    ];
    const current = [
      finding('f-kept', 'Off by one'),
      finding('f-done', 'Null check'),
      finding('f-no', 'Style'),
      finding('f-new', 'Race on close'),
    ];
    const result = compareFindings(previous, current, states({ 'f-done': 'resolved', 'f-no': 'wont-fix' }));
    expect(ids(result.new)).toEqual(['f-new']);
    expect(result.fixed.map(({ id, how }) => [id, how])).toEqual([
      ['f-done', 'resolved'],
      ['f-gone', 'gone'],
    ]);
    expect(ids(result.stillOpen)).toEqual(['f-kept']);
    expect(ids(result.declined)).toEqual(['f-no']);
  });

  it('keeps an accepted finding among the open ones, with its state', () => {
    const result = compareFindings([finding('f-a', 'A')], [finding('f-a', 'A')], states({ 'f-a': 'accepted' }));
    expect(result.stillOpen).toEqual([expect.objectContaining({ id: 'f-a', state: 'accepted' })]);
  });

  it('matches a reworded finding by its file and title, line numbers set aside', () => {
    const previous = [finding('f-old', 'Off by one in `src/a.ts:12`')];
    const current = [finding('f-new', 'Off by one in `src/a.ts:15-16`')];
    const result = compareFindings(previous, current, states({}));
    expect(ids(result.stillOpen)).toEqual(['f-new']);
    expect(result.new).toEqual([]);
    expect(result.fixed).toEqual([]);
  });

  it('matches a title an earlier version kept without its underscores', () => {
    const previous = [finding('f-old', 'A missing RATEPERSECOND gives NaN')];
    const current = [finding('f-new', 'A missing RATE_PER_SECOND gives NaN, reworded')];
    expect(ids(compareFindings(previous, current, states({})).stillOpen)).toEqual([]);
    const same = [finding('f-new', 'A missing RATE_PER_SECOND gives NaN')];
    expect(ids(compareFindings(previous, same, states({})).stillOpen)).toEqual(['f-new']);
  });

  it('does not match the same title in another file', () => {
    const result = compareFindings(
      [finding('f-1', 'Unchecked error', 'src/a.ts')],
      [finding('f-2', 'Unchecked error', 'src/b.ts')],
      states({}),
    );
    expect(ids(result.new)).toEqual(['f-2']);
    expect(result.fixed.map((f) => f.how)).toEqual(['gone']);
  });

  it('lets an exact id win over a look-alike title, and matches each earlier finding once', () => {
    const previous = [finding('f-x', 'Same title'), finding('f-y', 'Same title')];
    const current = [finding('f-z', 'Same title'), finding('f-y', 'Same title'), finding('f-w', 'Same title')];
    const result = compareFindings(previous, current, states({}));
    expect(ids(result.stillOpen)).toEqual(['f-z', 'f-y']);
    expect(ids(result.new)).toEqual(['f-w']);
    expect(result.fixed).toEqual([]);
  });

  it('compares with nothing: every finding is new; against nothing: every earlier one is gone', () => {
    expect(ids(compareFindings([], [finding('f-a', 'A')], states({})).new)).toEqual(['f-a']);
    expect(compareFindings([finding('f-a', 'A')], [], states({})).fixed).toEqual([
      expect.objectContaining({ id: 'f-a', how: 'gone' }),
    ]);
  });
});
