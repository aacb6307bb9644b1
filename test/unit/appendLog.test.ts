// The panel sends an append on its own only when every step from what the webview shows is known.

import { AppendLog } from '../../extension/src/panel/appendLog';

const append = (previousRevision: number, markdown = `part ${previousRevision + 1}`) => ({
  kind: 'append',
  previousRevision,
  review: { revision: previousRevision + 1 },
  appended: { markdown, startLine: previousRevision * 2 },
});

describe('AppendLog', () => {
  it('gives the steps from the shown revision to the current one, in order', () => {
    const log = new AppendLog();
    for (let revision = 1; revision <= 4; revision++) log.record(append(revision));
    expect(log.chain(2, 5)?.map((step) => step.markdown)).toEqual(['part 3', 'part 4', 'part 5']);
    expect(log.chain(1, 3)?.map((step) => step.revision)).toEqual([2, 3]);
  });

  it('has no chain across a replace, an update-section or a clear', () => {
    for (const kind of ['replace', 'update-section', 'clear']) {
      const log = new AppendLog();
      log.record(append(1));
      log.record({ kind, previousRevision: 2, review: kind === 'clear' ? undefined : { revision: 3 } });
      log.record(append(3));
      expect(log.chain(1, 4)).toBeUndefined();
      expect(log.chain(3, 4)?.length).toBe(1);
    }
  });

  it('has no chain from a revision it never saw, or to one it has not reached', () => {
    const log = new AppendLog();
    log.record(append(5));
    expect(log.chain(4, 6)).toBeUndefined();
    expect(log.chain(5, 7)).toBeUndefined();
    expect(log.chain(6, 6)).toBeUndefined();
  });

  it('forgets what the webview already has', () => {
    const log = new AppendLog();
    for (let revision = 1; revision <= 3; revision++) log.record(append(revision));
    log.forgetThrough(3);
    expect(log.chain(1, 4)).toBeUndefined();
    expect(log.chain(3, 4)?.length).toBe(1);
  });

  it('stays bounded: past its limits the panel renders the whole review instead', () => {
    const bySteps = new AppendLog(3, 1000);
    for (let revision = 1; revision <= 4; revision++) bySteps.record(append(revision));
    expect(bySteps.chain(1, 5)).toBeUndefined();

    const byChars = new AppendLog(100, 10);
    byChars.record(append(1, 'x'.repeat(6)));
    byChars.record(append(2, 'y'.repeat(6)));
    expect(byChars.chain(1, 3)).toBeUndefined();
    byChars.record(append(3, 'z'));
    expect(byChars.chain(3, 4)?.length).toBe(1);
  });
});
