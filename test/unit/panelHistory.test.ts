// The panel's history: an earlier review shown read-only, the picker's list, restore and compare.

import { PanelHistory, type EarlierReview, type PanelHistoryDeps } from '../../extension/src/panel/panelHistory';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';

const earlier: EarlierReview = {
  revision: 3,
  title: 'First pass',
  markdown: '# First',
  updatedAt: '2026-11-23T10:00:00.000Z',
};
const current = { revision: 5, title: 'Second pass', markdown: '# Second' };

function setup(overrides: Partial<PanelHistoryDeps> = {}) {
  const posted: HostToWebviewMessage[] = [];
  const warnings: string[] = [];
  let refreshes = 0;
  const deps: PanelHistoryDeps = {
    listHistory: async () => [{ revision: 3, title: 'First pass', updatedAt: earlier.updatedAt }],
    readEarlier: async (revision) => (revision === 3 ? earlier : undefined),
    restoreEarlier: async (revision) => revision === 3,
    compareWithPrevious: async () => undefined,
    showWarning: (message) => warnings.push(message),
    ...overrides,
  };
  const history = new PanelHistory({
    deps,
    post: (message) => posted.push(message),
    refresh: () => refreshes++,
    current: () => current,
  });
  return { history, posted, warnings, refreshes: () => refreshes };
}

describe('PanelHistory', () => {
  it('shows an earlier review in place of the current one, then goes back', async () => {
    const { history, posted, refreshes } = setup();
    await history.handle({ type: 'openEarlier', revision: 3 });
    expect(history.earlier).toBe(earlier);
    expect(refreshes()).toBe(1);
    expect(posted.at(-1)).toEqual({
      type: 'history',
      entries: [{ revision: 3, title: 'First pass', updatedAt: earlier.updatedAt }],
      viewing: 3,
    });
    await history.handle({ type: 'openEarlier' });
    expect(history.earlier).toBeUndefined();
    expect(refreshes()).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(posted.at(-1)).toMatchObject({ type: 'history', viewing: undefined });
  });

  it('says so when the review has left the history, and keeps what is shown', async () => {
    const { history, warnings, refreshes } = setup();
    await history.open(2);
    expect(history.earlier).toBeUndefined();
    expect(refreshes()).toBe(0);
    expect(warnings).toEqual(['Redline: revision 2 is no longer in the history.']);
  });

  it('lets the last choice win over a slow read', async () => {
    let release: (review: EarlierReview) => void = () => undefined;
    const { history } = setup({ readEarlier: () => new Promise((resolve) => (release = resolve)) });
    const opening = history.open(3);
    history.showCurrent();
    release(earlier);
    await opening;
    expect(history.earlier).toBeUndefined();
  });

  it('restores through the deps and warns when the review is gone', async () => {
    const { history, warnings } = setup();
    await history.handle({ type: 'restoreEarlier', revision: 3 });
    expect(warnings).toEqual([]);
    await history.handle({ type: 'restoreEarlier', revision: 9 });
    expect(warnings).toEqual(['Redline: revision 9 is no longer in the history.']);
  });

  it('compares the review shown: the earlier one while it is open, else the current one', async () => {
    const compared: unknown[] = [];
    const { history, posted } = setup({ compareWithPrevious: async (review) => void compared.push(review) });
    await history.handle({ type: 'compare' });
    await history.open(3);
    await history.handle({ type: 'compare' });
    expect(compared).toEqual([current, earlier]);
    expect(posted.filter((m) => m.type === 'comparison')).toEqual([
      { type: 'comparison', comparison: null },
      { type: 'comparison', comparison: null },
    ]);
  });
});
