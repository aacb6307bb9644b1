// The steps Redline adds to markdown-it's parse: every block gets the source line it starts on
// (data-line, which the panel scrolls by), and every link is decided (classifyLinks): a file
// reference, an http(s) link, or plain text; references in prose and inline code become links too.
// What they decide travels on the tokens (linkMeta) to the render rules in markdownRenderer.ts.

import MarkdownIt from 'markdown-it';
import { findReferences, parseLinkTarget } from '../../../shared/links';
import { CandidateBlocks } from './candidateBlocks';
import type { CodeHighlighter } from './codeHighlight';
import type { FindingCandidate } from './findingExtraction';
import type { ReferenceMeta } from './referenceAnswers';
import { counterOf, type RenderCounter } from './renderBudget';

type Token = MarkdownIt.Token;
/** Only for normalizeLinkText, which Redline's own instance does not change. */
const plain = new MarkdownIt();

/**
 * What a link turns into. The webview posts `data-ref` / `data-external` back to the host, which
 * parses it again, so the page never holds a path or URL the browser itself could follow.
 */
export type LinkMeta = ReferenceMeta | { kind: 'external'; url: string } | { kind: 'plain' };

export interface RenderState {
  references: ReferenceMeta[];
  candidates: FindingCandidate[];
  lineOffset: number;
  highlighter: CodeHighlighter;
}

export const RENDER_STATE = Symbol('redline.renderState');
const WHITESPACE = /\s/;

/**
 * `data-line` (0-based) on every block, as VS Code's preview does, so the panel can scroll to a
 * line. Also turns table cells' `style="text-align:…"` into a class: the panel's CSP allows no
 * inline styles.
 */
export function addSourceLines(state: MarkdownIt.StateCore): void {
  const offset = (state.env[RENDER_STATE] as RenderState | undefined)?.lineOffset ?? 0;
  for (const token of state.tokens) {
    if (token.map && token.block && token.nesting !== -1 && token.type !== 'inline') {
      token.attrSet('data-line', String(token.map[0] + offset));
    }
    // Only table cells have a style; most tokens have no attributes at all.
    if (token.attrs === null || (token.type !== 'th_open' && token.type !== 'td_open')) continue;
    const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''));
    if (align) {
      token.attrs = token.attrs!.filter(([name]) => name !== 'style');
      token.attrJoin('class', `align-${align[1]}`);
    }
  }
}

/**
 * Decides what every link becomes, and makes links of the references in prose and inline code.
 * Runs after linkify and text_join, so text tokens are whole and URLs are already links.
 */
export function classifyLinks(state: MarkdownIt.StateCore): void {
  const render = state.env[RENDER_STATE] as RenderState | undefined;
  if (render === undefined) return;
  let line = 1;
  const candidates = new CandidateBlocks(render);
  const parse: ParseContext = { render, TokenClass: state.Token, counter: counterOf(state.env) };
  for (const block of state.tokens) {
    if (block.map) line = block.map[0] + 1 + render.lineOffset;
    candidates.see(block);
    if (block.type === 'inline' && block.children) {
      block.children = new InlineLinker(parse, line).run(block.children);
    }
  }
}

/** What every inline token of one parse is linked with. */
interface ParseContext {
  readonly render: RenderState;
  readonly TokenClass: MarkdownIt.StateCore['Token'];
  /** Each reference linked adds to the render's counts, which stop it past their limits. */
  readonly counter: RenderCounter | undefined;
}

/** Rebuilds one inline token's children with links classified and references wrapped in links. */
class InlineLinker {
  private readonly output: Token[] = [];
  /** The links we are inside: text there is already a link's text, so it is not linked again. */
  private readonly open: LinkMeta[] = [];
  private readonly render: RenderState;
  private readonly TokenClass: MarkdownIt.StateCore['Token'];
  private readonly counter: RenderCounter | undefined;

  /** `line`: the 1-based line of the review the inline token starts on. */
  constructor(
    { render, TokenClass, counter }: ParseContext,
    private line: number,
  ) {
    this.render = render;
    this.TokenClass = TokenClass;
    this.counter = counter;
  }

  run(children: Token[]): Token[] {
    for (const token of children) {
      switch (token.type) {
        case 'softbreak':
        case 'hardbreak':
          this.line++;
          this.output.push(token);
          break;
        case 'link_open': {
          const href = String(token.attrGet('href') ?? '');
          // The destination's only way into the page is through the meta below.
          token.attrs = null;
          const meta = linkTargetMeta(href, this.line, this.render);
          this.counter?.checkReferences(this.render.references.length);
          token.meta = { link: meta };
          this.open.push(meta);
          this.output.push(token);
          break;
        }
        case 'link_close':
          token.meta = { link: this.open.pop() ?? PLAIN };
          this.output.push(token);
          break;
        case 'image':
          token.attrs = null; // never loaded: renderImage shows the alt text only
          this.output.push(token);
          break;
        case 'text':
          if (this.open.length > 0) this.output.push(token);
          else this.linkProse(token);
          break;
        case 'code_inline': {
          const meta = this.open.length > 0 ? undefined : inlineCodeMeta(token.content, this.line, this.render);
          if (meta) this.wrap(meta, token);
          else this.output.push(token);
          break;
        }
        default:
          this.output.push(token);
      }
    }
    return this.output;
  }

  private linkProse(token: Token): void {
    const content = token.content;
    let at = 0;
    let found = false;
    // A long text is searched a piece at a time, so that each reference is counted (and the
    // render stopped past the budget) as it is found rather than after all of them are.
    for (let from = 0; from < content.length;) {
      const to = pieceEnd(content, from);
      for (const hit of findReferences(from === 0 && to === content.length ? content : content.slice(from, to))) {
        found = true;
        if (hit.start + from > at) this.output.push(this.text(content.slice(at, hit.start + from)));
        this.wrap(
          recordReference(this.render, { raw: hit.text, reference: hit.reference, line: this.line }),
          this.text(hit.text),
        );
        at = hit.end + from;
      }
      from = to;
    }
    if (!found) {
      this.output.push(token);
      return;
    }
    if (at < content.length) this.output.push(this.text(content.slice(at)));
  }

  private wrap(meta: LinkMeta, inner: Token): void {
    this.counter?.addReferenceLink();
    this.counter?.checkReferences(this.render.references.length);
    const linkOpen = new this.TokenClass('link_open', 'a', 1);
    const linkClose = new this.TokenClass('link_close', 'a', -1);
    linkOpen.meta = linkClose.meta = { link: meta };
    this.output.push(linkOpen, inner, linkClose);
  }

  private text(content: string): Token {
    const token = new this.TokenClass('text', '', 0);
    token.content = content;
    return token;
  }
}

/** Prose is searched for references in pieces of about this many characters. */
const PROSE_PIECE = 64 * 1024;

/** Where the piece of `text` from `from` ends: at a space after PROSE_PIECE characters (no reference spans one), or the end. */
function pieceEnd(text: string, from: number): number {
  if (text.length - from <= PROSE_PIECE) return text.length;
  const space = text.indexOf(' ', from + PROSE_PIECE);
  return space === -1 ? text.length : space;
}

function linkTargetMeta(href: string, line: number, render: RenderState): LinkMeta {
  const target = parseLinkTarget(href);
  if (target === undefined) return { kind: 'plain' };
  if (target.kind === 'external') return { kind: 'external', url: target.url };
  // markdown-it percent-encodes destinations; the report shows the reference as the assistant wrote it.
  return recordReference(render, {
    raw: href,
    reference: target,
    line,
    asWritten: () => plain.normalizeLinkText(href),
  });
}

/**
 * Inline code is code first: only a whole span that is a reference with a line, or a path that
 * exists, becomes a link. Spans with spaces are sentences or commands, not references.
 */
function inlineCodeMeta(content: string, line: number, render: RenderState): LinkMeta | undefined {
  if (WHITESPACE.test(content)) return undefined;
  const target = parseLinkTarget(content);
  if (target?.kind !== 'file') return undefined;
  return recordReference(render, {
    raw: content,
    reference: target,
    line,
    onlyIfResolved: target.line === undefined,
  });
}

/**
 * A reference, added to the render's. `asWritten` is only needed for the report of a broken
 * reference, so it is computed only then.
 */
function recordReference(
  render: RenderState,
  found: Omit<ReferenceMeta, 'kind' | 'onlyIfResolved' | 'resolution'> & { readonly onlyIfResolved?: boolean },
): LinkMeta {
  const meta: ReferenceMeta = { kind: 'reference', onlyIfResolved: false, ...found };
  render.references.push(meta);
  return meta;
}

// ---- renderer rules -------------------------------------------------------------------------

export function linkMeta(token: Token): LinkMeta {
  const meta = (token.meta?.link as LinkMeta | undefined) ?? PLAIN;
  return meta.kind === 'reference' && meta.onlyIfResolved && meta.resolution?.status !== 'resolved' ? PLAIN : meta;
}

export const PLAIN: LinkMeta = { kind: 'plain' };
