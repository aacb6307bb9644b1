// The webview is untrusted: what it posts is checked before the host acts on it.

import { MAX_LINK_LENGTH, parseWebviewMessage } from '../../extension/src/panel/webviewMessageSchemas';

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
});

describe('focus answers', () => {
  it('carry the question, a yes or no and the keyboard, and nothing else', () => {
    expect(parseWebviewMessage({ type: 'focusAnswer', question: 3, byUser: false, hasKeyboard: true, x: 1 })).toEqual({
      type: 'focusAnswer',
      question: 3,
      byUser: false,
      hasKeyboard: true,
    });
    for (const bad of [
      { type: 'focusAnswer', question: -1, byUser: true, hasKeyboard: true },
      { type: 'focusAnswer', question: 1.5, byUser: true, hasKeyboard: true },
      { type: 'focusAnswer', question: 1, byUser: 'yes', hasKeyboard: true },
      { type: 'focusAnswer', question: 1, byUser: true },
      { type: 'pointerDown' },
    ])
      expect(parseWebviewMessage(bad)).toBeUndefined();
  });

  it('the keyboard kept as the editor was shown: nothing else', () => {
    expect(parseWebviewMessage({ type: 'keyboardKept', gained: 1 })).toEqual({ type: 'keyboardKept' });
  });
});
