import { MAX_FINDING_STATES, RecentStates } from '../../extension/src/review/recentStates';

describe('the findings’ recent states', () => {
  it('keeps the most recently changed, oldest first, however many came', () => {
    const states = new RecentStates();
    for (let i = 1; i <= 3 * MAX_FINDING_STATES; i++) states.set(`f-${i}`, 'resolved');
    // Changing an old one makes it the newest.
    states.set(`f-${2 * MAX_FINDING_STATES + 1}`, 'accepted');
    const entries = states.entries();
    expect(entries).toHaveLength(MAX_FINDING_STATES);
    expect(entries.at(-1)).toEqual([`f-${2 * MAX_FINDING_STATES + 1}`, 'accepted']);
    expect(entries[0]).toEqual([`f-${2 * MAX_FINDING_STATES + 2}`, 'resolved']);
    expect(states.get('f-1')).toBeUndefined();
    expect(states.get(`f-${3 * MAX_FINDING_STATES}`)).toBe('resolved');
  });

  it('forgets one on delete', () => {
    const states = new RecentStates();
    states.set('f-a', 'wont-fix');
    states.delete('f-a');
    expect(states.get('f-a')).toBeUndefined();
    expect(states.entries()).toEqual([]);
  });
});
