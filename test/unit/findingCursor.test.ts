// Next Finding and Previous Finding: the review's order, from where the user is, wrapping with a notice.

import { FindingCursor, wrapNotice } from '../../extension/src/findings/findingCursor';

const ids = (...names: string[]) => names.map((id) => ({ id }));

it('starts at the first finding going forward and at the last going back', () => {
  expect(new FindingCursor(() => ids('a', 'b', 'c')).step('next')).toEqual({
    id: 'a',
    position: 1,
    count: 3,
    wrapped: false,
  });
  expect(new FindingCursor(() => ids('a', 'b', 'c')).step('previous')).toEqual({
    id: 'c',
    position: 3,
    count: 3,
    wrapped: false,
  });
});

it('walks the list in order and wraps at either end', () => {
  const cursor = new FindingCursor(() => ids('a', 'b', 'c'));
  expect([1, 2, 3, 4].map(() => cursor.step('next'))).toEqual([
    { id: 'a', position: 1, count: 3, wrapped: false },
    { id: 'b', position: 2, count: 3, wrapped: false },
    { id: 'c', position: 3, count: 3, wrapped: false },
    { id: 'a', position: 1, count: 3, wrapped: true },
  ]);
  expect(cursor.step('previous')).toEqual({ id: 'c', position: 3, count: 3, wrapped: true });
  expect(cursor.step('previous')).toMatchObject({ id: 'b', wrapped: false });
});

it('goes on from a finding the user opened some other way, and starts over when that finding is gone', () => {
  let list = ids('a', 'b', 'c');
  const cursor = new FindingCursor(() => list);
  cursor.moveTo('b');
  expect(cursor.step('next')).toMatchObject({ id: 'c' });
  list = ids('x', 'y');
  expect(cursor.step('next')).toMatchObject({ id: 'x', wrapped: false });
});

it('has nowhere to go in a review without findings', () => {
  expect(new FindingCursor(() => []).step('next')).toBeUndefined();
});

it('says where a wrap landed', () => {
  expect(wrapNotice('next', 12)).toBe('Redline: past the last finding, back at the first (1 of 12).');
  expect(wrapNotice('previous', 12)).toBe('Redline: before the first finding, back at the last (12 of 12).');
});
