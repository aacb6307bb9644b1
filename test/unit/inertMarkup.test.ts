// Label markup from a diagram is made inert before mermaid's sanitizer parses it: no event handler
// or inline style reaches a parser (where the panel's CSP would report it), and nothing else changes.

import { inertMarkup } from '../../extension/webview/inertMarkup';

describe('inertMarkup', () => {
  it.each([
    ['<img src=x onerror=alert(1)>', '<img src=x >'],
    ['<img src="x" onerror="alert(1)">', '<img src="x" >'],
    ['<img/onerror=alert(1)>', '<img/>'],
    ['<img src="x"onerror=alert(1)>', '<img src="x">'],
    ['<b ONMOUSEOVER=\'a(1)\' title="t">x</b>', '<b  title="t">x</b>'],
    ['<svg><set onbegin=alert(1) attributeName=x></svg>', '<svg><set  attributeName=x></svg>'],
    ['<span style="color:red" class=a>x</span>', '<span  class=a>x</span>'],
    ['<img src = x onerror = alert(1) >', '<img src = x  >'],
    ['<a title="<img onerror=alert(1)>" href=#>x</a>', '<a title="<img onerror=alert(1)>" href=#>x</a>'],
    ['<img onerror="never closed', '<img '],
  ])('%s', (markup, expected) => {
    expect(inertMarkup(markup)).toBe(expected);
  });

  it('turns <style> into an unknown element, so its text is only text', () => {
    expect(inertMarkup('<style>body{display:none}</style>')).toBe('<redline-style>body{display:none}</style>');
    expect(inertMarkup('<svg><STYLE type=text/css>a{}</STYLE></svg>')).toBe(
      '<svg><redline-style type=text/css>a{}</STYLE></svg>',
    );
  });

  it('leaves text, end tags, comments and other attributes as they are', () => {
    for (const text of [
      'go online=yes',
      'a < b and c > d',
      'x <= y',
      '<!-- on=1 -->',
      '</b onclick=x>',
      '<b>bold</b> <i class="on">i</i>',
      '<br/>',
      '',
    ]) {
      expect(inertMarkup(text)).toBe(text);
    }
    expect(inertMarkup('turn <b data-on="1" one=2>on=off</b>')).toBe('turn <b data-on="1" >on=off</b>');
  });
});
