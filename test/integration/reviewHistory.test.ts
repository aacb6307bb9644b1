// "Compare with previous" as the assistant gets it: get-review { compareWithPrevious } through the
// built MCP server, with the real store, renderer and conversation behind it.

import { durableSession } from './harness';
import type { ReviewComparison } from '../../shared/protocol';

type ComparedFinding = ReviewComparison['new'][number];
type FixedFinding = ReviewComparison['fixed'][number];

const FIRST = [
  '# First pass',
  '',
  '- **bug**: the loop at src/example.ts:42 never stops',
  '- **risk**: a handle leaks at src/example.ts:20',
  '- nit: naming at src/example.ts:10',
].join('\n');

// The loop is still there, the leak is gone, the nit was reworded (its lines moved), and one is new.
const SECOND = [
  '# Second pass',
  '',
  '- **bug**: the loop at src/example.ts:42 never stops',
  '- nit: naming at src/example.ts:11',
  '- **question**: is src/example.ts:30 reachable?',
].join('\n');

describe('get-review compareWithPrevious', () => {
  const session = durableSession();
  const call = session.call;

  it('says there is nothing to compare with before a second review', async () => {
    await call('present-review', { content: FIRST, title: 'First pass' });
    const result = await call('get-review', { compareWithPrevious: true });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.comparison).toBeNull();
    expect(result.content[0].text).toContain('There is no earlier review in this window to compare with.');
    // Not asked: no comparison at all.
    expect((await call('get-review')).structuredContent).not.toHaveProperty('comparison');
  });

  it('lists new, fixed, still open and declined findings against the review replaced', async () => {
    const second = (await call('present-review', { content: SECOND, title: 'Second pass' })).structuredContent!;
    const [loop, nit, question] = second.findings;
    await session.host.conversation.add({
      kind: 'state',
      findingId: nit.id,
      state: 'wont-fix',
      reference: nit.reference,
    });

    const result = await call('get-review', { compareWithPrevious: true });
    expect(result.isError).toBeFalsy();
    const comparison = result.structuredContent!.comparison!;
    expect(comparison.revision).toBe(second.revision);
    expect(comparison.previous).toMatchObject({ revision: second.revision - 1, title: 'First pass' });
    expect(comparison.new.map((f: ComparedFinding) => f.id)).toEqual([question.id]);
    expect(comparison.fixed.map((f: FixedFinding) => [f.severity, f.how])).toEqual([['risk', 'gone']]);
    expect(comparison.stillOpen.map((f: ComparedFinding) => f.id)).toEqual([loop.id]);
    expect(comparison.declined.map((f: ComparedFinding) => [f.id, f.state])).toEqual([[nit.id, 'wont-fix']]);

    await session.host.conversation.add({
      kind: 'state',
      findingId: loop.id,
      state: 'resolved',
      reference: loop.reference,
    });
    const after = (await call('get-review', { compareWithPrevious: true })).structuredContent!.comparison!;
    expect(after.fixed.map((f: FixedFinding) => [f.id, f.how])).toEqual([
      [loop.id, 'resolved'],
      [expect.any(String), 'gone'],
    ]);
    expect(after.stillOpen).toEqual([]);
    const text = (await call('get-review', { compareWithPrevious: true })).content[0].text;
    expect(text).toContain(`Compared with revision ${second.revision - 1} "First pass":`);
    expect(text).toContain(`New (1):\n- ${question.id} question src/example.ts:30: is src/example.ts:30 reachable?`);
  });

  it('refuses an argument that is not a boolean, with a message that names it', async () => {
    const result = await call('get-review', { compareWithPrevious: 'yes' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/compareWithPrevious/);
  });
});
