// The webview is untrusted: what it posts is checked before the host acts on it.

import { MAX_LINK_LENGTH, parseHostMessage, parseWebviewMessage } from '../../extension/src/panel/webviewMessages';

describe('parseWebviewMessage', () => {
  it.each([
    [{ type: 'ready' }, { type: 'ready' }],
    [{ type: 'copy', extra: 'ignored' }, { type: 'copy' }],
    [{ type: 'rendered', revision: 3 }, { type: 'rendered', revision: 3 }],
    [{ type: 'openReference', target: 'src/a.ts:12' }, { type: 'openReference', target: 'src/a.ts:12' }],
    [{ type: 'openExternal', url: 'https://example.com/x' }, { type: 'openExternal', url: 'https://example.com/x' }],
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
    ['a numeric target', { type: 'openReference', target: 12 }],
    ['an empty target', { type: 'openReference', target: '' }],
    ['an over-long target', { type: 'openReference', target: 'a'.repeat(MAX_LINK_LENGTH + 1) }],
    ['a javascript: url', { type: 'openExternal', url: 'javascript:alert(1)' }],
    ['a command: url', { type: 'openExternal', url: 'command:workbench.action.terminal.new' }],
    ['a file: url', { type: 'openExternal', url: 'file:///etc/passwd' }],
  ])('refuses %s', (_name, message) => {
    expect(parseWebviewMessage(message)).toBeUndefined();
  });
});

describe('parseHostMessage', () => {
  it('accepts a render and refuses one without html', () => {
    expect(parseHostMessage({ type: 'render', revision: 2, html: '<p>x</p>' })).toMatchObject({ type: 'render', revision: 2 });
    expect(parseHostMessage({ type: 'render', revision: 2 })).toBeUndefined();
    expect(parseHostMessage({ type: 'navigate', url: 'https://x' })).toBeUndefined();
  });
});
