// Cuts a long top-level list into consecutive lists of LIST_CHUNK_ITEMS items (fewer when they hold
// more than LIST_CHUNK_ELEMENTS elements). A browser lays out a list as one block; as chunks,
// pageSlices.ts can cut the page between them, and the panel lays out only the slices near the
// screen (`content-visibility` in review.css). Ordered lists keep their numbering through `start`,
// and the panel closes the gaps (webview/sliceBlocks.ts), so the list reads as one.

import type MarkdownIt from 'markdown-it';
import { isElement } from './renderBudget';

type Token = MarkdownIt.Token;
type TokenConstructor = MarkdownIt.StateCore['Token'];

export const LIST_CHUNK_ITEMS = 100;
/** Elements in one chunk at most, however few its items: a chunk is laid out whole. */
export const LIST_CHUNK_ELEMENTS = 5000;
/** On every list that was cut into chunks. */
export const CHUNK_CLASS = 'redline-list-chunk';
/** On every chunk after the first, which continues the list above it. */
export const CONTINUED_CLASS = 'redline-list-continued';

/**
 * In the env of a part of a review parsed on its own (reviewParts.ts): its first list continues a
 * long list of the part before, or its last list goes on in the next part. Either way the list is
 * one the whole review's parse cuts exactly there.
 */
export const LIST_PART = Symbol('redline.listPart');

export interface ListPart {
  readonly continuesList: boolean;
  readonly listContinues: boolean;
}

export function installListChunks(md: MarkdownIt): void {
  // Before the rule that adds `data-line`, so the new openings get theirs.
  md.core.ruler.before('redline_source_lines', 'redline_list_chunks', (state) => {
    state.tokens = chunkLongLists(
      state.tokens,
      state.Token,
      (state.env as Record<symbol, ListPart | undefined> | undefined)?.[LIST_PART],
    );
  });
}

/** A top-level list being read: where it starts, and its items and elements so far. */
interface OpenList {
  readonly token: Token;
  readonly start: number;
  items: number;
  chunked: boolean;
  chunkItems: number;
  chunkElements: number;
}

/**
 * A cut falls before every LIST_CHUNK_ITEMS-th item of a list, counted from its first, and in
 * between once a chunk holds LIST_CHUNK_ELEMENTS elements: the counted cuts do not move with the
 * others, so that a part of the review that starts at one sees the same cuts after it.
 */
export function chunkLongLists(tokens: Token[], TokenClass: TokenConstructor, part?: ListPart): Token[] {
  if (part?.continuesList) markList(tokens.find(isTopLevelList), `${CHUNK_CLASS} ${CONTINUED_CLASS}`);
  if (part?.listContinues) markList(lastOf(tokens, isTopLevelList), CHUNK_CLASS);
  if (!hasLongList(tokens)) return tokens;
  const out: Token[] = [];
  let open: OpenList | undefined;
  for (const token of tokens) {
    if (isTopLevelList(token)) {
      open = {
        token,
        start: Number(token.attrGet('start') ?? 1),
        items: 0,
        chunked: hasClass(token, CHUNK_CLASS),
        chunkItems: 0,
        chunkElements: 0,
      };
    } else if (open && token.level === 1 && token.type === 'list_item_open') {
      if ((open.items > 0 && open.items % LIST_CHUNK_ITEMS === 0) || open.chunkElements >= LIST_CHUNK_ELEMENTS) {
        if (!open.chunked) open.token.attrJoin('class', CHUNK_CLASS);
        open.chunked = true;
        out.push(closingOf(open.token, TokenClass), continuation(open, token, TokenClass));
        open.chunkItems = 0;
        open.chunkElements = 0;
      }
      open.items++;
      open.chunkItems++;
    } else if (open && token.level === 0 && token.nesting === -1) {
      open = undefined;
    }
    if (open) open.chunkElements += elementsOf(token);
    out.push(token);
  }
  return out;
}

/** Whether any top-level list has more items, or more elements, than a chunk: most reviews pass through untouched. */
function hasLongList(tokens: readonly Token[]): boolean {
  let items = 0;
  let elements = 0;
  for (const token of tokens) {
    if (token.level === 0 && token.nesting === 1) {
      items = 0;
      elements = 0;
    } else if (token.level === 1 && token.type === 'list_item_open' && ++items > LIST_CHUNK_ITEMS) return true;
    if (token.level > 0 && (elements += elementsOf(token)) > LIST_CHUNK_ELEMENTS) return true;
  }
  return false;
}

function isTopLevelList(token: Token): boolean {
  return token.level === 0 && (token.type === 'bullet_list_open' || token.type === 'ordered_list_open');
}

function lastOf(tokens: readonly Token[], test: (token: Token) => boolean): Token | undefined {
  for (let i = tokens.length - 1; i >= 0; i--) if (test(tokens[i])) return tokens[i];
  return undefined;
}

function hasClass(token: Token, name: string): boolean {
  return String(token.attrGet('class') ?? '')
    .split(' ')
    .includes(name);
}

/** Gives a list the classes it has in the whole review's page, unless it has them already. */
function markList(list: Token | undefined, classes: string): void {
  if (list && !hasClass(list, CHUNK_CLASS)) list.attrJoin('class', classes);
}

function elementsOf(token: Token): number {
  let elements = isElement(token) ? 1 : 0;
  for (const child of token.children ?? []) if (isElement(child)) elements++;
  return elements;
}

/** The closing token of `open`, at its level. */
export function closingOf(open: Token, TokenClass: TokenConstructor): Token {
  const close = new TokenClass(open.type.replace('_open', '_close'), open.tag, -1);
  close.block = true;
  close.level = open.level;
  close.markup = open.markup;
  return close;
}

/** A new opening of `list`, numbered on from the items before `firstItem`. */
function continuation(list: OpenList, firstItem: Token, TokenClass: TokenConstructor): Token {
  const open = new TokenClass(list.token.type, list.token.tag, 1);
  open.block = true;
  open.markup = list.token.markup;
  open.map = firstItem.map ? [firstItem.map[0], firstItem.map[0]] : null;
  open.attrJoin('class', `${CHUNK_CLASS} ${CONTINUED_CLASS}`);
  if (list.token.type === 'ordered_list_open') open.attrSet('start', String(list.start + list.items));
  return open;
}
