// The webview is untrusted: what it posts is checked before the host acts on it.

import { MAX_LINK_LENGTH, parseHostMessage, parseWebviewMessage } from '../../extension/src/panel/messageParsing';

describe('parseWebviewMessage', () => {
  it.each([
    [{ type: 'ready' }, { type: 'ready' }],
    [{ type: 'copy', extra: 'ignored' }, { type: 'copy' }],
    [
      { type: 'rendered', revision: 3 },
      { type: 'rendered', revision: 3 },
    ],
    [
      { type: 'sliceAdded', revision: 4 },
      { type: 'sliceAdded', revision: 4 },
    ],
    [
      { type: 'openReference', target: 'src/a.ts:12' },
      { type: 'openReference', target: 'src/a.ts:12' },
    ],
    // A link inside a finding says which, so that it follows the finding's code.
    [
      { type: 'openReference', target: 'src/a.ts:12', findingId: 'f-1a2b' },
      { type: 'openReference', target: 'src/a.ts:12', findingId: 'f-1a2b' },
    ],
    [
      { type: 'openExternal', url: 'https://example.com/x' },
      { type: 'openExternal', url: 'https://example.com/x' },
    ],
  ])('accepts %j', (message, expected) => {
    expect(parseWebviewMessage(message)).toEqual(expected);
  });

  it.each([
    ['null', null],
    ['a string', 'ready'],
    ['an array', [{ type: 'ready' }]],
    ['an unknown type', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
    ['a negative revision', { type: 'rendered', revision: -1 }],
    ['a fractional revision', { type: 'rendered', revision: 1.5 }],
    ['a slice of no revision', { type: 'sliceAdded', revision: 'x' }],
    ['a numeric target', { type: 'openReference', target: 12 }],
    ['an empty target', { type: 'openReference', target: '' }],
    ['an over-long target', { type: 'openReference', target: 'a'.repeat(MAX_LINK_LENGTH + 1) }],
    ['a finding id that is not one', { type: 'openReference', target: 'src/a.ts:12', findingId: { toString: 'x' } }],
    ['a javascript: url', { type: 'openExternal', url: 'javascript:alert(1)' }],
    ['a command: url', { type: 'openExternal', url: 'command:workbench.action.terminal.new' }],
    ['a file: url', { type: 'openExternal', url: 'file:///etc/passwd' }],
  ])('refuses %s', (_name, message) => {
    expect(parseWebviewMessage(message)).toBeUndefined();
  });
});

describe('parseHostMessage', () => {
  it('accepts a render and refuses one without html', () => {
    expect(parseHostMessage({ type: 'render', revision: 2, html: '<p>x</p>' })).toMatchObject({
      type: 'render',
      revision: 2,
    });
    expect(parseHostMessage({ type: 'render', revision: 2 })).toBeUndefined();
    expect(parseHostMessage({ type: 'navigate', url: 'https://x' })).toBeUndefined();
  });
});

describe('parseHostMessage: appends and slices', () => {
  it('accepts an append that names the revision it follows', () => {
    expect(parseHostMessage({ type: 'append', fromRevision: 4, revision: 5, html: '<p>new</p>' })).toEqual({
      type: 'append',
      fromRevision: 4,
      revision: 5,
      title: undefined,
      html: '<p>new</p>',
    });
  });

  it.each([
    ['without the revision it follows', { type: 'append', revision: 5, html: '' }],
    ['with a numeric title', { type: 'append', fromRevision: 4, revision: 5, html: '', title: 3 }],
    ['that says more in words', { type: 'render', revision: 2, html: '<p>x</p>', more: 'yes' }],
    ['slice without saying whether it is the last', { type: 'slice', revision: 2, html: '<p>x</p>' }],
    ['slice without html', { type: 'slice', revision: 2, last: true }],
  ])('refuses one %s', (_name, message) => {
    expect(parseHostMessage(message)).toBeUndefined();
  });

  it('keeps a first slice and the slices after it', () => {
    expect(parseHostMessage({ type: 'render', revision: 2, html: '<p>x</p>', more: true })).toMatchObject({
      more: true,
    });
    expect(parseHostMessage({ type: 'slice', revision: 2, html: '<p>y</p>', last: true, extra: 1 })).toEqual({
      type: 'slice',
      revision: 2,
      html: '<p>y</p>',
      last: true,
    });
  });
});

describe('finding messages', () => {
  it('takes state changes, reveals and messages from the webview only when well formed', () => {
    expect(parseWebviewMessage({ type: 'setFindingState', id: 'f-abc_12-2', state: 'wont-fix' })).toEqual({
      type: 'setFindingState',
      id: 'f-abc_12-2',
      state: 'wont-fix',
    });
    expect(parseWebviewMessage({ type: 'setFindingState', id: 'f-abc', state: 'deleted' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'setFindingState', id: '../../etc', state: 'open' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'revealFinding', id: 'f-abc' })).toEqual({ type: 'revealFinding', id: 'f-abc' });
    expect(parseWebviewMessage({ type: 'revealFinding', id: `f-${'a'.repeat(100)}` })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'sendMessage', text: 'please fix the retry' })).toEqual({
      type: 'sendMessage',
      text: 'please fix the retry',
    });
    expect(parseWebviewMessage({ type: 'sendMessage', text: '   ' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'sendMessage', text: 'x'.repeat(16 * 1024 + 1) })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'sendMessage', text: 42 })).toBeUndefined();
  });

  it('keeps only well-formed marks, and checks the other host messages', () => {
    const marks = [
      { id: 'f-a', state: 'open', stale: false },
      { id: 'f-b', state: 'resolved', stale: true, extra: 'dropped' },
      { id: 'f-c', state: 'gone', stale: false },
      { id: 'f-d', state: 'open' },
      'junk',
    ];
    expect(parseHostMessage({ type: 'findings', marks })).toEqual({
      type: 'findings',
      marks: [
        { id: 'f-a', state: 'open', stale: false },
        { id: 'f-b', state: 'resolved', stale: true },
      ],
    });
    expect(parseHostMessage({ type: 'findings', marks: 'x' })).toBeUndefined();
    expect(parseHostMessage({ type: 'showFinding', id: 'f-a' })).toEqual({ type: 'showFinding', id: 'f-a' });
    expect(parseHostMessage({ type: 'messageResult', sent: false, error: 'disk full' })).toEqual({
      type: 'messageResult',
      sent: false,
      error: 'disk full',
    });
    expect(parseHostMessage({ type: 'messageResult', sent: 'yes' })).toBeUndefined();
  });
});

describe('suggestion messages', () => {
  it('takes Apply… for a finding and an index, and nothing else', () => {
    expect(parseWebviewMessage({ type: 'applySuggestion', id: 'f-abc', index: 0 })).toEqual({
      type: 'applySuggestion',
      id: 'f-abc',
      index: 0,
    });
    expect(parseWebviewMessage({ type: 'applySuggestion', id: 'f-abc', index: -1 })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'applySuggestion', id: 'f-abc', index: 1.5 })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'applySuggestion', id: 'f-abc', index: '0' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'applySuggestion', id: 'file:///etc/passwd', index: 0 })).toBeUndefined();
  });
});

describe('history messages', () => {
  it("accepts the picker's choices and refuses what is not a revision", () => {
    expect(parseWebviewMessage({ type: 'openEarlier', revision: 4 })).toEqual({ type: 'openEarlier', revision: 4 });
    expect(parseWebviewMessage({ type: 'openEarlier' })).toEqual({ type: 'openEarlier' });
    expect(parseWebviewMessage({ type: 'openEarlier', revision: 0 })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'openEarlier', revision: '4' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'restoreEarlier', revision: 2 })).toEqual({
      type: 'restoreEarlier',
      revision: 2,
    });
    expect(parseWebviewMessage({ type: 'restoreEarlier' })).toBeUndefined();
    expect(parseWebviewMessage({ type: 'compare', extra: 1 })).toEqual({ type: 'compare' });
  });

  it('keeps only well-formed history entries', () => {
    const entries = [
      { revision: 3, title: 'A', updatedAt: 'now', extra: 'x' },
      { revision: 'x', updatedAt: 'now' },
      { revision: 2, updatedAt: 7 },
    ];
    expect(parseHostMessage({ type: 'history', entries, viewing: 3 })).toEqual({
      type: 'history',
      entries: [{ revision: 3, title: 'A', updatedAt: 'now' }],
      viewing: 3,
    });
    expect(parseHostMessage({ type: 'history', entries: 'x' })).toBeUndefined();
  });

  it('accepts a comparison, or null, and refuses a malformed one', () => {
    const entry = { id: 'f-abc', severity: 'bug', title: 'T', reference: 'a.ts:1', state: 'open' };
    const comparison = {
      revision: 5,
      previous: { revision: 3, updatedAt: 'then' },
      new: [entry],
      fixed: [{ ...entry, how: 'gone' }],
      stillOpen: [],
      declined: [],
    };
    expect(parseHostMessage({ type: 'comparison', comparison })).toEqual({ type: 'comparison', comparison });
    expect(parseHostMessage({ type: 'comparison', comparison: null })).toEqual({
      type: 'comparison',
      comparison: null,
    });
    expect(
      parseHostMessage({ type: 'comparison', comparison: { ...comparison, fixed: [{ ...entry, how: 'maybe' }] } }),
    ).toBeUndefined();
    expect(
      parseHostMessage({ type: 'comparison', comparison: { ...comparison, new: [{ ...entry, id: '<img>' }] } }),
    ).toBeUndefined();
  });
});

describe('tab messages', () => {
  it('accepts a tab the host could have named, and nothing else', () => {
    expect(parseWebviewMessage({ type: 'selectTab', key: '' })).toEqual({ type: 'selectTab', key: '' });
    expect(parseWebviewMessage({ type: 'selectTab', key: 'assistants/codex-0123456789ab' })).toEqual({
      type: 'selectTab',
      key: 'assistants/codex-0123456789ab',
    });
    for (const key of ['../reviews', 'assistants/../../x', 'assistants/UPPER', 7, undefined]) {
      expect(parseWebviewMessage({ type: 'selectTab', key })).toBeUndefined();
    }
  });

  it('keeps only well-formed tabs', () => {
    const tabs = [
      { key: '', label: 'claude-code', active: true },
      { key: 'x/y', label: 'bad', active: false },
      { key: 'assistants/a-1', label: 3, active: false },
    ];
    expect(parseHostMessage({ type: 'tabs', tabs })).toEqual({
      type: 'tabs',
      tabs: [{ key: '', label: 'claude-code', active: true }],
    });
  });
});
