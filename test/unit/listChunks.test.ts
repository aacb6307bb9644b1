import MarkdownIt from 'markdown-it';
import { CHUNK_CLASS, CONTINUED_CLASS, LIST_CHUNK_ITEMS, chunkLongLists } from '../../extension/src/render/listChunks';
import { renderReview, type Resolver } from '../../extension/src/render/markdownRenderer';

const nothingResolves: Resolver = { resolve: () => ({ status: 'broken', reason: 'no such file' }) };
const htmlOf = async (markdown: string) => (await renderReview(markdown, nothingResolves)).html;

/** The list items' own markup, in order, with every list opening and closing taken out. */
const itemsOf = (html: string) => html.replace(/<\/?(ul|ol)[^>]*>\n?/g, '');

const bullets = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `- item ${from + i}`).join('\n');

describe('long lists come as chunks of LIST_CHUNK_ITEMS items', () => {
  it('cuts a top-level list of 250 items into three lists, every item kept in order', async () => {
    const html = await htmlOf(`# R\n\n${bullets(250)}\n\nafter\n`);
    const lists = html.match(/<ul[^>]*>/g)!;
    expect(lists).toEqual([
      `<ul class="${CHUNK_CLASS}" data-line="2">`,
      `<ul class="${CHUNK_CLASS} ${CONTINUED_CLASS}" data-line="${2 + LIST_CHUNK_ITEMS}">`,
      `<ul class="${CHUNK_CLASS} ${CONTINUED_CLASS}" data-line="${2 + 2 * LIST_CHUNK_ITEMS}">`,
    ]);
    expect(html.match(/<\/ul>/g)).toHaveLength(3);
    // The same items as markdown-it's own render of the whole list, and nothing else changed.
    const plain = new MarkdownIt().render(`# R\n\n${bullets(250)}\n\nafter\n`);
    expect(itemsOf(html).replace(/ data-line="\d+"/g, '')).toBe(itemsOf(plain));
  });

  it('numbers an ordered list on through its chunks, from the start it was given', async () => {
    const ordered = Array.from({ length: 201 }, (_, i) => `${i + 5}. step`).join('\n');
    const starts = (await htmlOf(ordered)).match(/<ol[^>]*>/g)!.map((tag) => /start="(\d+)"/.exec(tag)?.[1]);
    expect(starts).toEqual(['5', String(5 + LIST_CHUNK_ITEMS), String(5 + 2 * LIST_CHUNK_ITEMS)]);
  });

  it('leaves a list of exactly LIST_CHUNK_ITEMS items, nested lists and lists in quotes as they are', async () => {
    expect(await htmlOf(bullets(LIST_CHUNK_ITEMS))).not.toContain(CHUNK_CLASS);
    const nested = `- top\n${bullets(150).replace(/^/gm, '  ')}\n`;
    expect((await htmlOf(nested)).match(/<ul/g)).toHaveLength(2);
    expect(await htmlOf(bullets(150).replace(/^/gm, '> '))).not.toContain(CHUNK_CLASS);
  });

  it('keeps loose items loose and nested content inside its item', async () => {
    const loose = Array.from({ length: 120 }, (_, i) => `- item ${i}\n\n  more ${i}\n  - sub ${i}`).join('\n\n');
    const html = await htmlOf(loose);
    expect(html.match(/<ul class="redline-list-chunk/g)).toHaveLength(2);
    expect(html).toContain('<li data-line="');
    expect(html.match(/<p data-line="\d+">item \d+<\/p>/g)).toHaveLength(120);
    expect(html.match(/<li data-line="\d+">sub \d+<\/li>/g)).toHaveLength(120);
  });

  it('lets the first screen end inside a long list', async () => {
    const { html, slices } = await renderReview(`# R\n\n${bullets(5000)}\n`, nothingResolves);
    const firstScreen = slices?.[0];
    expect(firstScreen).toBeLessThan(html.length / 10);
    expect(html.slice(0, firstScreen)).toMatch(/<\/ul>\n$/);
    expect(html.slice(firstScreen!)).toMatch(/^<ul class="redline-list-chunk redline-list-continued"/);
  });

  it('returns the very same token array when no list is long', () => {
    const md = new MarkdownIt();
    const tokens = md.parse(`${bullets(LIST_CHUNK_ITEMS)}\n\npara\n\n${bullets(LIST_CHUNK_ITEMS)}`, {});
    expect(chunkLongLists(tokens, md.core.State.prototype.Token)).toBe(tokens);
  });
});
