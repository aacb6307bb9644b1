// Text from outside (an assistant's review, its name, a reply or a tool's words from an imported log)
// made inert before it is published to GitHub, decided by parsing, not by patterns:
//   - an @mention would notify whoever it names. The text is parsed with markdown-it as GitHub parses
//     it, and every `@` (or `&#64;`, `&#x40;`, `&commat;`, `\@`) that ends up in a text node, where
//     GitHub's mention rule would read a name after it, gets a word joiner (U+2060) after it. Code
//     spans and blocks, link targets and autolinks keep their text: GitHub notifies no one there.
//     The result is parsed again and checked; should any mention remain, every `@` is neutralised.
//   - an HTML comment opened in it could hide the rest, or pass for one of Redline's markers: every
//     `<!--` gets a word joiner too, so it reads the same and opens nothing.

import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** As GitHub reads a comment: raw HTML allowed, bare links linked, tables and strikethrough. */
const md = new MarkdownIt('default', { html: true, linkify: true });

/** The places in the source that can become an `@` once rendered. */
const AT_SITES = /\\@|&(?:#0*64;?|#[xX]0*40;?|commat;)|@/g;
/** A name after an `@`, as GitHub's mention rule takes one (a user, or an org/team). */
const NAME_AFTER = /^[A-Za-z0-9]/;
/** GitHub's mention, in rendered text: after the start or a non-word character. */
const MENTION = /(^|[^A-Za-z0-9_])@[A-Za-z0-9]/;
const JOINER = '\u2060';
/** Each site's stand-in while the text is parsed: private-use characters, never in a review. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const DIGIT_BASE = 0xe010;
const MARKED = new RegExp(
  `${OPEN}([${String.fromCharCode(DIGIT_BASE)}-${String.fromCharCode(DIGIT_BASE + 15)}]+)${CLOSE}`,
  'g',
);
/** What GitHub counts as part of a word before an `@`: then it is no mention. */
const WORD = /[A-Za-z0-9_]/;

/** `text` as it may be published: no mention notifies anyone, and no comment opens. */
export function inert(text: string): string {
  const withoutComments = text.replace(/<!--/g, `<!${JOINER}--`);
  const sites = [...withoutComments.matchAll(AT_SITES)];
  if (sites.length === 0) return withoutComments;
  const inText = sitesInText(withoutComments, sites);
  const neutralised = `@${JOINER}`;
  let neutral = rewrite(withoutComments, sites, (index, site) => (inText.has(index) ? neutralised : site));
  // The stand-ins are letters to the parser where `@` is punctuation: should that have changed
  // what is text, the check finds it, and every site is neutralised.
  if (hasMention(neutral)) neutral = rewrite(withoutComments, sites, () => neutralised);
  return neutral;
}

/** Which sites render inside text a mention could be read in, found by parsing the text with each site marked. */
function sitesInText(text: string, sites: readonly RegExpMatchArray[]): Set<number> {
  const probe = rewrite(text, sites, marker);
  const found = new Set<number>();
  for (const content of textContents(md.parse(probe, {}))) {
    for (const match of content.matchAll(MARKED)) {
      const at = match.index ?? 0;
      const before = content.charAt(at - 1);
      const after = content.charAt(at + match[0].length);
      // Another site right after is an `@`: no name follows this one. A word character right before makes an e-mail address.
      if (NAME_AFTER.test(after) && !WORD.test(before)) found.add(indexOf(match[1]));
    }
  }
  return found;
}

/** `text` with each site replaced by what `replace` says: `@` and a joiner, a marker, or the site as it was. */
function rewrite(
  text: string,
  sites: readonly RegExpMatchArray[],
  replace: (index: number, site: string) => string,
): string {
  const parts: string[] = [];
  let from = 0;
  sites.forEach((site, index) => {
    const at = site.index ?? 0;
    parts.push(text.slice(from, at));
    parts.push(replace(index, site[0]));
    from = at + site[0].length;
  });
  parts.push(text.slice(from));
  return parts.join('');
}

/** Whether GitHub would read a mention in the rendered text of `text`. */
function hasMention(text: string): boolean {
  return textContents(md.parse(text, {})).some((content) => MENTION.test(content));
}

/**
 * The contents GitHub's mention rule reads: text outside code, links and autolinks, and raw HTML
 * (whose text is text once GitHub renders it).
 */
function textContents(tokens: readonly Token[]): string[] {
  const contents: string[] = [];
  const walk = (list: readonly Token[]) => {
    let inAutolink = 0;
    for (const token of list) {
      if (token.type === 'link_open' && (token.markup === 'linkify' || token.markup === 'autolink')) inAutolink++;
      else if (token.type === 'link_close' && inAutolink > 0) inAutolink--;
      else if (token.type === 'html_block' || token.type === 'html_inline') contents.push(token.content);
      else if ((token.type === 'text' || token.type === 'text_special') && inAutolink === 0)
        contents.push(token.content);
      if (token.children) walk(token.children);
    }
  };
  walk(tokens);
  return contents;
}

function marker(index: number): string {
  const digits = index.toString(16);
  return `${OPEN}${[...digits].map((digit) => String.fromCharCode(DIGIT_BASE + parseInt(digit, 16))).join('')}${CLOSE}`;
}

function indexOf(encoded: string): number {
  return parseInt([...encoded].map((char) => (char.charCodeAt(0) - DIGIT_BASE).toString(16)).join(''), 16);
}
