// The webview takes a message from its host only when it is one of the host's types.

import { asHostMessage } from '../../extension/webview/hostMessages';

describe('asHostMessage', () => {
  it.each([
    { type: 'render', revision: 2, html: '<p>x</p>' },
    { type: 'slice', revision: 2, html: '<p>y</p>', last: true },
    { type: 'empty' },
    { type: 'tabs', tabs: [] },
  ])('takes %j', (message) => {
    expect(asHostMessage(message)).toBe(message);
  });

  it.each([
    ['null', null],
    ['a string', 'render'],
    ['an array', [{ type: 'render' }]],
    ['an unknown type', { type: 'navigate', url: 'https://x' }],
    ['a type inherited from Object', { type: 'constructor' }],
    ['no type', { revision: 2, html: '<p>x</p>' }],
  ])('refuses %s', (_name, data) => {
    expect(asHostMessage(data)).toBeUndefined();
  });
});
