// Renders an assistant's review markdown to the panel's HTML, turning every file reference into a link
// and counting which ones resolve. The markdown is untrusted: no raw HTML, and no href but "#".

import MarkdownIt from 'markdown-it';
import type { ReferenceReport } from '../../../shared/protocol';
import { findReferences, formatReference, parseLinkTarget, type FileReference } from '../../../shared/links';
import { checkpoint } from './checkpoint';
import { checkPageSize } from './pageBudget';
import { renderInSlices } from './pageSlices';
import { installLabelGuard } from './labelGuard';
import { findingsOf, type FindingCandidate, type ReviewFinding } from '../findings/findings';
import { CandidateBlocks } from '../findings/candidateBlocks';
import { attachOriginals, renderSuggestion } from '../findings/suggestions';
import { CodeHighlighter } from './codeHighlight';
import { installListChunks } from './listChunks';
import { MAX_BROKEN_LISTED, ReferenceTally, resolveAll, type ReferenceMeta, type Resolver } from './referenceAnswers';
import type { Resolution } from './referenceResolver';

export { MAX_BROKEN_LISTED, type Resolver };
export { RenderBudgetError } from './pageBudget';

type Token = MarkdownIt.Token;
type RendererOptions = MarkdownIt.Options;

export interface RenderedReview {
  html: string;
  /** Where in `html` each slice the panel receives on its own ends (pageSlices.ts); absent for one slice. */
  slices?: readonly number[];
  references: ReferenceReport;
  /** The blocks that point at code (findings.ts), each marked in `html` with `data-finding`. */
  findings: ReviewFinding[];
}

export interface RenderOptions {
  /** Added to every `data-line` and report line: the fragment starts this many lines into the review. */
  lineOffset?: number;
  /** Finding ids the rest of the review already uses (for an appended part). */
  takenFindingIds?: ReadonlySet<string>;
  /** The text of files open with unsaved changes, by path: a suggestion's diff is against it. */
  unsaved?: ReadonlyMap<string, string>;
  /**
   * Stops the render between its steps (after the parse, between file lookups, before the HTML),
   * rejecting with the signal's reason; with it, the render lets the event loop read input between
   * steps (checkpoint.ts). The parse and the HTML are synchronous and are not cut.
   */
  signal?: AbortSignal;
  /** Told as the render moves from step to step: a large present-review's progress. */
  onProgress?: (step: RenderStep) => void;
}

export type RenderStep =
  | { readonly step: 'parsed'; readonly references: number }
  | { readonly step: 'resolving'; readonly resolved: number; readonly references: number }
  | { readonly step: 'findings'; readonly candidates: number }
  | { readonly step: 'writing' };

/**
 * What a link turns into. The webview posts `data-ref` / `data-external` back to the host, which
 * parses it again, so the page never holds a path or URL the browser itself could follow.
 */
type LinkMeta =
  | ReferenceMeta
  | { kind: 'external'; url: string }
  | { kind: 'plain' };

interface RenderState {
  references: ReferenceMeta[];
  candidates: FindingCandidate[];
  lineOffset: number;
  highlighter: CodeHighlighter;
}

const RENDER_STATE = Symbol('redline.renderState');
const WHITESPACE = /\s/;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
const { escapeHtml, unescapeAll } = md.utils;
// Every destination is accepted here so a refused link still shows its text rather than its raw
// markdown. Safety does not rest on this: `classifyLinks` removes every href from the tokens, and
// the rules below only ever write `href="#"`.
md.validateLink = () => true;
// markdown-it parses and re-encodes every destination (mdurl + punycode), which is most of a link's
// cost in a review with thousands of references; a plain relative path would come back unchanged.
const normalizeLink = md.normalizeLink.bind(md);
// The fast path's output was checked equal to markdown-it's on a million random strings of its alphabet.
const PLAIN_PATH = /^(?!\/\/)[A-Za-z0-9_./-]+(?::\d+(?::\d+)?(?:-\d+(?::\d+)?)?|#[A-Za-z0-9-]+)?$/;
md.normalizeLink = (url) => (PLAIN_PATH.test(url) ? url : normalizeLink(url));
// Only http(s) links are ever shown as links, so linkify need not look for anything else: e-mail
// addresses, `mailto:`, `ftp:` and `//host` would end up as plain text anyway.
md.linkify.set({ fuzzyEmail: false }).add('mailto:', null).add('ftp:', null).add('//', null);
installLabelGuard(md);
md.core.ruler.push('redline_source_lines', addSourceLines);
md.core.ruler.push('redline_links', classifyLinks);
installListChunks(md);
md.renderer.rules.link_open = renderLinkOpen;
md.renderer.rules.link_close = (tokens, idx) => (linkMeta(tokens[idx]).kind === 'plain' ? '' : '</a>');
md.renderer.rules.image = renderImage;
md.renderer.rules.fence = renderFence;

/**
 * Two phases: markdown-it parses once and collects every reference; they are all resolved (async,
 * each distinct one once); then the tokens are rendered synchronously with the answers.
 */
export async function renderReview(markdown: string, resolver: Resolver, options: RenderOptions = {}): Promise<RenderedReview> {
  const state: RenderState = { references: [], candidates: [], lineOffset: options.lineOffset ?? 0, highlighter: new CodeHighlighter() };
  const env = { [RENDER_STATE]: state };
  const { signal, onProgress } = options;
  const tokens = md.parse(markdown, env);
  await checkpoint(signal);
  const references = state.references.length;
  onProgress?.({ step: 'parsed', references });
  await resolveAll(state.references, resolver, { signal, onResolved: onProgress && ((resolved) => onProgress({ step: 'resolving', resolved, references })) });
  await checkpoint(signal);
  const tally = new ReferenceTally();
  for (const meta of state.references) {
    if (!(meta.onlyIfResolved && meta.resolution!.status !== 'resolved')) tally.count(meta, meta.resolution!);
  }
  // Before rendering: a finding's block carries its id into the HTML, and its suggestions a diff.
  onProgress?.({ step: 'findings', candidates: state.candidates.length });
  const findings = findingsOf(state.candidates, markdown.split(/\r\n?|\n/), state.lineOffset, options.takenFindingIds);
  await attachOriginals(
    findings.flatMap((finding) =>
      finding.suggestionTokens.map((token, index) => ({ token, index, findingId: finding.id, file: finding.file, line: finding.line, endLine: finding.endLine, target: finding.reference })),
    ),
    options.unsaved,
  );
  await checkpoint(signal);
  onProgress?.({ step: 'writing' });
  const page = renderInSlices(md, tokens, env);
  checkPageSize(page.html);
  return { ...page, references: tally.report(), findings };
}

// ---- core rules -----------------------------------------------------------------------------

/**
 * `data-line` (0-based) on every block, as VS Code's preview does, so the panel can scroll to a
 * line. Also turns table cells' `style="text-align:…"` into a class: the panel's CSP allows no
 * inline styles.
 */
function addSourceLines(state: MarkdownIt.StateCore): void {
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
function classifyLinks(state: MarkdownIt.StateCore): void {
  const render = state.env[RENDER_STATE] as RenderState | undefined;
  if (render === undefined) return;
  let line = 1;
  const candidates = new CandidateBlocks(render);
  for (const block of state.tokens) {
    if (block.map) line = block.map[0] + 1 + render.lineOffset;
    candidates.see(block);
    if (block.type === 'inline' && block.children) {
      block.children = new InlineLinker(line, render, state.Token).run(block.children);
    }
  }
}

/** Rebuilds one inline token's children with links classified and references wrapped in links. */
class InlineLinker {
  private readonly output: Token[] = [];
  /** The links we are inside: text there is already a link's text, so it is not linked again. */
  private readonly open: LinkMeta[] = [];

  constructor(
    private line: number,
    private readonly render: RenderState,
    private readonly TokenClass: MarkdownIt.StateCore['Token'],
  ) {}

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
    const hits = findReferences(content);
    if (hits.length === 0) {
      this.output.push(token);
      return;
    }
    let at = 0;
    for (const hit of hits) {
      if (hit.start > at) this.output.push(this.text(content.slice(at, hit.start)));
      this.wrap(referenceMeta(hit.text, hit.reference, this.line, this.render), this.text(hit.text));
      at = hit.end;
    }
    if (at < content.length) this.output.push(this.text(content.slice(at)));
  }

  private wrap(meta: LinkMeta, inner: Token): void {
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

function linkTargetMeta(href: string, line: number, render: RenderState): LinkMeta {
  const target = parseLinkTarget(href);
  if (target === undefined) return { kind: 'plain' };
  if (target.kind === 'external') return { kind: 'external', url: target.url };
  // markdown-it percent-encodes destinations; the report shows the reference as the assistant wrote it.
  return referenceMeta(href, target, line, render, () => md.normalizeLinkText(href));
}

/**
 * Inline code is code first: only a whole span that is a reference with a line, or a path that
 * exists, becomes a link. Spans with spaces are sentences or commands, not references.
 */
function inlineCodeMeta(content: string, line: number, render: RenderState): LinkMeta | undefined {
  if (WHITESPACE.test(content)) return undefined;
  const target = parseLinkTarget(content);
  if (target?.kind !== 'file') return undefined;
  return referenceMeta(content, target, line, render, undefined, target.line === undefined);
}

/** `asWritten` is only needed for the report of a broken reference, so it is computed only then. */
function referenceMeta(
  raw: string,
  reference: FileReference,
  line: number,
  render: RenderState,
  asWritten?: () => string,
  onlyIfResolved = false,
): LinkMeta {
  const meta: ReferenceMeta = { kind: 'reference', raw, reference, line, asWritten, onlyIfResolved };
  render.references.push(meta);
  return meta;
}

// ---- renderer rules -------------------------------------------------------------------------

function linkMeta(token: Token): LinkMeta {
  const meta = (token.meta?.link as LinkMeta | undefined) ?? PLAIN;
  return meta.kind === 'reference' && meta.onlyIfResolved && meta.resolution?.status !== 'resolved' ? PLAIN : meta;
}

const PLAIN: LinkMeta = { kind: 'plain' };

function referenceTitle(meta: ReferenceMeta): { title: string; className: string } {
  const resolution = meta.resolution ?? { status: 'unchecked', reason: 'not checked' };
  switch (resolution.status) {
    case 'broken':
      return { title: resolution.reason, className: 'redline-ref redline-broken' };
    case 'unchecked':
      return { title: `Open ${formatReference(meta.reference)} (${resolution.reason})`, className: 'redline-ref' };
    case 'resolved': {
      const clamped = resolution.clamped ? ` (the file ends at line ${resolution.lineCount})` : '';
      return { title: `Open ${formatReference(meta.reference)}${clamped}`, className: 'redline-ref' };
    }
  }
}

function renderLinkOpen(tokens: Token[], idx: number): string {
  const meta = linkMeta(tokens[idx]);
  switch (meta.kind) {
    case 'reference': {
      const { title, className } = referenceTitle(meta);
      return `<a class="${className}" href="#" data-ref="${escapeHtml(meta.raw)}" title="${escapeHtml(title)}">`;
    }
    case 'external':
      return `<a class="redline-external" href="#" data-external="${escapeHtml(meta.url)}" title="${escapeHtml(meta.url)}">`;
    case 'plain':
      return '';
  }
}

/** Images would be network requests or local file reads; the panel promises neither, so show the alt text. */
function renderImage(tokens: Token[], idx: number, options: RendererOptions, env: unknown, self: MarkdownIt.Renderer): string {
  const alt = self.renderInlineAsText(tokens[idx].children ?? [], options, env);
  return `<span class="redline-image">${escapeHtml(alt || 'image')}</span>`;
}

/** `data-line` goes on the `<pre>` (the default rule puts attributes on `<code>`); known languages are highlighted. */
function renderFence(tokens: Token[], idx: number, _options: RendererOptions, env: unknown, self: MarkdownIt.Renderer): string {
  const token = tokens[idx];
  const suggestion = renderSuggestion(token, self.renderAttrs(token));
  if (suggestion !== undefined) return suggestion;
  const language = unescapeAll(token.info).trim().split(/\s+/)[0];
  // A diagram: drawn by the webview (webview/mermaidDiagrams.ts); until then, and if it cannot be, its source reads as code.
  if (language.toLowerCase() === 'mermaid') {
    return `<pre class="redline-mermaid"${self.renderAttrs(token)}><code class="language-mermaid">${escapeHtml(token.content)}</code></pre>\n`;
  }
  const highlighted = language ? ((env as Record<symbol, RenderState | undefined>)[RENDER_STATE]?.highlighter.highlight(token.content, language.toLowerCase())) : undefined;
  const classes = [highlighted !== undefined ? 'hljs' : '', language ? `language-${escapeHtml(language)}` : ''].filter(Boolean).join(' ');
  const classAttribute = classes ? ` class="${classes}"` : '';
  return `<pre${self.renderAttrs(token)}><code${classAttribute}>${highlighted ?? escapeHtml(token.content)}</code></pre>\n`;
}
