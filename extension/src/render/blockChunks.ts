// Cuts a long top-level paragraph or table into consecutive blocks, as listChunks.ts does for lists,
// so that pageSlices.ts can cut the page between them and the panel lays out only the slices near
// the viewport. A paragraph is cut where no emphasis or link is open, a table between rows. A
// top-level block still too large for the panel to lay out refuses the review.

import type MarkdownIt from 'markdown-it';
import { describeExcess, RENDER_BUDGET, refusalOf } from '../../../shared/reviewBudget';
import { RenderBudgetError } from './pageBudget';
import { closingOf } from './listChunks';
import { counterOf, isElement } from './renderBudget';

type Token = MarkdownIt.Token;
type TokenConstructor = MarkdownIt.StateCore['Token'];

/** Elements in one chunk of a paragraph (or of a long list, listChunks.ts): a few screens of text. */
export const PARAGRAPH_CHUNK_ELEMENTS = 500;
/** Body rows in one chunk of a table, at most; fewer when its rows are wide (TABLE_CHUNK_CELLS). */
export const TABLE_CHUNK_ROWS = 100;
/** Cells in one chunk of a table: a chunk of the widest table allowed stays well within a block's limit. */
export const TABLE_CHUNK_CELLS = 5000;
/** On every chunk after the first, which continues the block above it. */
export const CONTINUED_BLOCK_CLASS = 'redline-block-continued';

export function installBlockChunks(md: MarkdownIt): void {
  // After every rule that adds tokens (references become links in classifyLinks).
  md.core.ruler.push('redline_block_chunks', (state) => {
    state.tokens = cutLongBlocks(state.tokens, state.Token);
    // The final count: the openings of these chunks and of a long list's are elements of the page too.
    counterOf(state.env)?.recount(state.tokens);
    checkBlockSizes(state.tokens);
  });
}

/** `tokens` with long top-level paragraphs and tables cut; `tokens` itself when none is. */
export function cutLongBlocks(tokens: Token[], TokenClass: TokenConstructor): Token[] {
  const out: Token[] = [];
  let changed = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (
      token.level === 0 &&
      token.type === 'paragraph_open' &&
      tokens[i + 1]?.children &&
      countElements(tokens[i + 1].children!) > PARAGRAPH_CHUNK_ELEMENTS
    ) {
      append(out, cutParagraph({ open: token, inline: tokens[i + 1], close: tokens[i + 2] }, TokenClass));
      changed = true;
      i += 2;
    } else if (token.level === 0 && token.type === 'table_open') {
      let close = i + 1;
      while (tokens[close].type !== 'table_close' || tokens[close].level !== 0) close++;
      const table = tokens.slice(i, close + 1);
      const chunks = cutTable(table, TokenClass);
      changed ||= chunks !== table;
      append(out, chunks);
      i = close;
    } else out.push(token);
  }
  return changed ? out : tokens;
}

/** A paragraph's three tokens: its opening, its inline content and its closing. */
interface ParagraphTokens {
  readonly open: Token;
  readonly inline: Token;
  readonly close: Token;
}

/**
 * The paragraph as consecutive paragraphs of about PARAGRAPH_CHUNK_ELEMENTS each, cut where
 * nothing inline is open, or, when the text gives no such place for long, inside the emphasis and
 * links that are open, which are closed at the cut and opened again after it.
 */
function cutParagraph({ open, inline, close }: ParagraphTokens, TokenClass: TokenConstructor): Token[] {
  const out: Token[] = [];
  let piece: Token[] = [];
  let elements = 0;
  /** The inline elements open at this point, outermost first. */
  const openInline: Token[] = [];
  const flush = () => {
    const chunkOpen = out.length === 0 ? open : continuation(open, TokenClass);
    const chunkInline = new TokenClass('inline', '', 0);
    chunkInline.children = piece;
    chunkInline.map = inline.map;
    chunkInline.level = inline.level;
    chunkInline.content = '';
    out.push(chunkOpen, chunkInline, closingOf(close, TokenClass));
    piece = [];
    elements = 0;
  };
  for (const child of inline.children!) {
    const limit = openInline.length === 0 ? PARAGRAPH_CHUNK_ELEMENTS : 4 * PARAGRAPH_CHUNK_ELEMENTS;
    if (elements >= limit && piece.length > 0) {
      for (let i = openInline.length - 1; i >= 0; i--) piece.push(inlineCopy(openInline[i], TokenClass, -1));
      flush();
      for (const opened of openInline) piece.push(inlineCopy(opened, TokenClass, 1));
      // The line break where a cut falls is the chunk's end.
      if (openInline.length === 0 && (child.type === 'softbreak' || child.type === 'hardbreak')) continue;
    }
    piece.push(child);
    if (isElement(child)) elements++;
    if (child.nesting === 1) openInline.push(child);
    else if (child.nesting === -1) openInline.pop();
  }
  if (piece.length > 0 || out.length === 0) flush();
  return out;
}

/** An inline element's opening again (1), or its closing (-1), with what the render rules read from it. */
function inlineCopy(opened: Token, TokenClass: TokenConstructor, nesting: 1 | -1): Token {
  const copy = new TokenClass(
    nesting === 1 ? opened.type : opened.type.replace('_open', '_close'),
    opened.tag,
    nesting,
  );
  copy.markup = opened.markup;
  copy.meta = opened.meta;
  if (nesting === 1) copy.attrs = opened.attrs && opened.attrs.map(([name, value]) => [name, value]);
  return copy;
}

/** The table as consecutive tables of a few body rows each; the first keeps the header. */
function cutTable(table: Token[], TokenClass: TokenConstructor): Token[] {
  const rowStarts: number[] = [];
  let inBody = false;
  for (let i = 0; i < table.length; i++) {
    if (table[i].type === 'tbody_open') inBody = true;
    else if (inBody && table[i].type === 'tr_open') rowStarts.push(i);
  }
  const columns = table.filter((token) => token.type === 'th_open').length || 1;
  const rowsPerChunk = Math.max(1, Math.min(TABLE_CHUNK_ROWS, Math.floor(TABLE_CHUNK_CELLS / columns)));
  if (rowStarts.length <= rowsPerChunk) return table;
  const [tableOpen] = table;
  const bodyOpen = table.find((token) => token.type === 'tbody_open')!;
  const out: Token[] = [];
  let from = 0;
  for (let r = rowsPerChunk; r < rowStarts.length; r += rowsPerChunk) {
    const cut = rowStarts[r];
    append(out, table.slice(from, cut));
    out.push(closingOf(bodyOpen, TokenClass), closingOf(tableOpen, TokenClass));
    const next = continuation(tableOpen, TokenClass, table[cut].map);
    const nextBody = new TokenClass('tbody_open', 'tbody', 1);
    nextBody.block = true;
    nextBody.level = 1;
    out.push(next, nextBody);
    from = cut;
  }
  append(out, table.slice(from));
  return out;
}

/** Refuses a top-level block that still holds more elements than the panel can lay out at once. */
export function checkBlockSizes(tokens: readonly Token[]): void {
  const budget = RENDER_BUDGET.blockElements;
  let elements = 0;
  let line = 0;
  const check = () => {
    if (elements > budget.limit)
      throw new RenderBudgetError(refusalOf(`one block of ${describeExcess(budget, elements)}, from line ${line}`));
  };
  for (const token of tokens) {
    if (token.level === 0 && token.nesting !== -1) {
      check();
      elements = 0;
      line = token.map ? token.map[0] + 1 : line;
    }
    if (isElement(token)) elements++;
    if (token.children) elements += countElements(token.children);
  }
  check();
}

/** Not push(...items): a list that long would overflow the call's arguments. */
function append(out: Token[], items: readonly Token[]): void {
  for (const item of items) out.push(item);
}

function countElements(tokens: readonly Token[]): number {
  let elements = 0;
  for (const token of tokens) if (isElement(token)) elements++;
  return elements;
}

function continuation(open: Token, TokenClass: TokenConstructor, map: [number, number] | null = open.map): Token {
  const next = new TokenClass(open.type, open.tag, 1);
  next.block = true;
  next.level = open.level;
  next.map = map;
  const line = open.attrGet('data-line');
  if (line !== null)
    next.attrSet('data-line', map && map !== open.map ? String(Number(line) + map[0] - open.map![0]) : line);
  next.attrJoin('class', CONTINUED_BLOCK_CLASS);
  return next;
}
