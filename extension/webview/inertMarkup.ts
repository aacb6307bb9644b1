// Label markup from a diagram's source, made inert before mermaid's sanitizer parses it: Chrome
// checks the CSP as such markup is parsed, even into an inert document, and reports every event
// handler and <style> as a violation. So start tags lose `on…` and `style` attributes, and a <style>
// start tag becomes an unknown element; all else is left as it is. It errs on the side of removing.

const SPACE = /\s/;
const LETTER = /[A-Za-z]/;
/** Attributes the CSP would be asked about: event handlers and inline style. */
const CHECKED_ATTRIBUTE = /^(on|style$)/i;

export function inertMarkup(markup: string): string {
  if (!markup.includes('<')) return markup;
  let out = '';
  let at = 0;
  while (at < markup.length) {
    const open = markup.indexOf('<', at);
    if (open < 0) break;
    out += markup.slice(at, open + 1);
    at = open + 1;
    // As in HTML, only `<` and a letter open a start tag.
    if (!LETTER.test(markup[at] ?? '')) continue;
    const [tag, end] = startTag(markup, at);
    out += tag;
    at = end;
  }
  return out + markup.slice(at);
}

/** The start tag whose name begins at `at` (after its `<`), rewritten, and where it ends. */
function startTag(markup: string, at: number): [string, number] {
  let i = at;
  while (i < markup.length && !SPACE.test(markup[i]) && markup[i] !== '/' && markup[i] !== '>') i++;
  const name = markup.slice(at, i);
  let tag = name.toLowerCase() === 'style' ? 'redline-style' : name;
  for (;;) {
    const gap = i;
    while (i < markup.length && (SPACE.test(markup[i]) || markup[i] === '/')) i++;
    tag += markup.slice(gap, i);
    if (i >= markup.length) return [tag, i];
    if (markup[i] === '>') return [`${tag}>`, i + 1];
    // An attribute: its name (which may begin with `=`), then perhaps `=` and a value.
    const nameStart = i++;
    while (i < markup.length && !SPACE.test(markup[i]) && !'/>='.includes(markup[i])) i++;
    const attribute = markup.slice(nameStart, i);
    let j = i;
    while (j < markup.length && SPACE.test(markup[j])) j++;
    if (markup[j] === '=') {
      j++;
      while (j < markup.length && SPACE.test(markup[j])) j++;
      const quote = markup[j];
      if (quote === '"' || quote === "'") {
        const close = markup.indexOf(quote, j + 1);
        j = close < 0 ? markup.length : close + 1;
      } else {
        while (j < markup.length && !SPACE.test(markup[j]) && markup[j] !== '>') j++;
      }
      i = j;
    }
    if (!CHECKED_ATTRIBUTE.test(attribute)) tag += markup.slice(nameStart, i);
  }
}
