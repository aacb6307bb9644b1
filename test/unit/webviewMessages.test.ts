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

describe('parseHostMessage: appends and first screens', () => {
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
    ['with a first screen past the html', { type: 'render', revision: 2, html: '<p>x</p>', firstScreen: 9 }],
    ['with a negative first screen', { type: 'render', revision: 2, html: '<p>x</p>', firstScreen: -1 }],
  ])('refuses one %s', (_name, message) => {
    expect(parseHostMessage(message)).toBeUndefined();
  });

  it('keeps a first screen that falls inside the html', () => {
    expect(parseHostMessage({ type: 'render', revision: 2, html: '<p>x</p><p>y</p>', firstScreen: 8 })).toMatchObject({ firstScreen: 8 });
  });
});
