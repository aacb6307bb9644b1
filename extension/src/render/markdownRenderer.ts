// Renders an assistant's review markdown to the panel's HTML, turning every file reference into a link
// and counting which ones resolve. The markdown is untrusted: no raw HTML, and no href but "#".

import MarkdownIt from 'markdown-it';
import type { ReferenceReport } from '../../../shared/protocol';
import { yieldThread } from '../../../shared/threadYield';
import { PageParts } from './pageParts';
import { renderInSlices } from './pageSlices';
import { reviewParts, type ReviewPart } from './reviewParts';
import { countNewlines } from './sections';
import { installLabelGuard } from './labelGuard';
import { findingsOf, type FindingCandidate, type ReviewFinding } from './findingExtraction';
import { attachOriginals } from './suggestions';
import { CodeHighlighter } from './codeHighlight';
import { installListChunks, LIST_PART, type ListPart } from './listChunks';
import { installBlockChunks } from './blockChunks';
import { counterOf, countingEnv, installRenderBudget, type RenderCost } from './renderBudget';
import { addSourceLines, classifyLinks, RENDER_STATE, type RenderState } from './parseSteps';
import { installRenderRules } from './renderRules';
import { MAX_BROKEN_LISTED, ReferenceTally, resolveAll, type ReferenceMeta, type Resolver } from './referenceAnswers';

export { MAX_BROKEN_LISTED, type Resolver };
export { RenderBudgetError } from './pageBudget';

type Token = MarkdownIt.Token;

export interface RenderedReview {
  html: string;
  /** Where in `html` each slice the panel receives on its own ends (pageSlices.ts); absent for one slice. */
  slices?: readonly number[];
  references: ReferenceReport;
  /** The blocks that point at code (findingExtraction.ts), each marked in `html` with `data-finding`. */
  findings: ReviewFinding[];
  /** What the render counted against RENDER_BUDGET (renderBudget.ts). */
  cost: RenderCost;
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
   * steps (shared/threadYield.ts). The parse and the HTML are synchronous and are not cut.
   */
  signal?: AbortSignal;
  /** Told as the render moves from step to step: a large present-review's progress. */
  onProgress?: (step: RenderStep) => void;
  /** Told each slice of the page (RenderedReview.slices) as soon as it is written, before the rest of the review is parsed. */
  onSlice?: (html: string) => void;
  /** The slices told are all the caller keeps: the result's `html` is empty, and the page is not held twice. */
  slicesOnly?: boolean;
}

export type RenderStep =
  | { readonly step: 'parsed'; readonly references: number }
  | { readonly step: 'resolving'; readonly resolved: number; readonly references: number }
  | { readonly step: 'findings'; readonly candidates: number }
  | { readonly step: 'writing' }
  /** A review in parts: this share of its markdown (0 to 1) is written, after the first part's steps. */
  | { readonly step: 'written'; readonly share: number };

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
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
installRenderBudget(md);
md.core.ruler.push('redline_source_lines', addSourceLines);
md.core.ruler.push('redline_links', classifyLinks);
installListChunks(md);
installBlockChunks(md);
installRenderRules(md);

/**
 * Two phases: markdown-it parses and collects every reference; they are all resolved (async, each
 * distinct one once); then the tokens are rendered synchronously with the answers. A review longer
 * than a screen goes through both phases a part at a time (reviewParts.ts), so that its first
 * screen is written (onSlice) before the rest is parsed; the parts share one env, and the page,
 * the report, the findings and the counts come out as the whole review's would.
 */
export async function renderReview(
  markdown: string,
  resolver: Resolver,
  options: RenderOptions = {},
): Promise<RenderedReview> {
  const state: RenderState = {
    references: [],
    candidates: [],
    lineOffset: options.lineOffset ?? 0,
    highlighter: new CodeHighlighter(),
  };
  // Counted as it parses: past a limit of RENDER_BUDGET the parse stops with a RenderBudgetError.
  const env = countingEnv({ [RENDER_STATE]: state }, markdown);
  const { signal, onProgress } = options;
  const parts = reviewParts(markdown);
  const whole = { markdown, parts, env, state, firstLine: state.lineOffset };
  const tally = new ReferenceTally();
  const findings: ReviewFinding[] = [];
  const taken = new Set(options.takenFindingIds);
  const page = new PageParts(options.onSlice, !(options.slicesOnly && options.onSlice));
  let lookedUpAt: number | undefined;
  for (let k = 0; k < parts.length; k++) {
    const { tokens, text, references, candidates } = parsePart(whole, k);
    if (signal) await yieldThread(signal);
    // A review in parts tells its first part's steps: by then the rest is what is left to write.
    const tell = k === 0 ? onProgress : undefined;
    tell?.({ step: 'parsed', references: references.length });
    // The disk's time budget counts the lookups, not the parts written in between.
    if (lookedUpAt !== undefined) resolver.idle?.(performance.now() - lookedUpAt);
    await resolveAll(references, resolver, {
      signal,
      onResolved: tell && ((resolved) => tell({ step: 'resolving', resolved, references: references.length })),
    });
    lookedUpAt = performance.now();
    if (signal) await yieldThread(signal);
    for (const meta of references) {
      if (!(meta.onlyIfResolved && meta.resolution!.status !== 'resolved')) tally.count(meta, meta.resolution!);
    }
    // Before rendering: a finding's block carries its id into the HTML, and its suggestions a diff.
    tell?.({ step: 'findings', candidates: candidates.length });
    // Numbered after the parts above, as the whole review numbers a repeated text.
    const found = findingsOf(candidates, { sourceLines: text.split(/\r\n?|\n/), lineOffset: state.lineOffset, taken });
    for (const finding of found) {
      taken.add(finding.id);
      findings.push(finding);
    }
    await attachOriginals(
      found.flatMap((finding) =>
        finding.suggestionTokens.map((token, index) => ({
          token,
          index,
          findingId: finding.id,
          file: finding.file,
          line: finding.line,
          endLine: finding.endLine,
          target: finding.reference,
        })),
      ),
      options.unsaved,
    );
    if (signal) await yieldThread(signal);
    tell?.({ step: 'writing' });
    renderInSlices(md, tokens, { env, firstScreen: k === 0, onSlice: (html) => page.add(html) });
    if (parts.length > 1) onProgress?.({ step: 'written', share: parts[k].to / markdown.length });
  }
  return { ...page.finish(), references: tally.report(), findings, cost: counterOf(env)!.total() };
}

interface WholeReview {
  readonly markdown: string;
  /** Cut into these; a part the scan got wrong is joined to the rest. */
  readonly parts: ReviewPart[];
  readonly env: object;
  readonly state: RenderState;
  /** The review's first line in what the report and `data-line` number. */
  readonly firstLine: number;
}

/** Parses part `k` in the shared env: its tokens, and the references and candidate blocks it added. */
function parsePart(
  whole: WholeReview,
  k: number,
): { tokens: Token[]; text: string; references: ReferenceMeta[]; candidates: FindingCandidate[] } {
  const { markdown, parts, env, state } = whole;
  const part = parts[k];
  const counter = counterOf(env)!;
  const before = {
    references: state.references.length,
    candidates: state.candidates.length,
    counts: counter.snapshot(),
  };
  const text = markdown.slice(part.from, part.to);
  state.lineOffset = whole.firstLine + part.line;
  (env as Record<symbol, ListPart>)[LIST_PART] = {
    continuesList: part.continuesList,
    listContinues: part.listFrom !== undefined,
  };
  counter.startPart(part.from / Math.max(markdown.length, 1), (part.to - part.from) / Math.max(markdown.length, 1));
  const tokens = md.parse(text, env);
  if (k === parts.length - 1 || endsWhereCut(tokens, text, part)) {
    return {
      tokens,
      text,
      references: state.references.slice(before.references),
      candidates: state.candidates.slice(before.candidates),
    };
  }
  // The scan took a line for a cut that a block it could not see runs over (a fence, a list begun
  // above the run it cut): the rest is one part.
  state.references.length = before.references;
  state.candidates.length = before.candidates;
  before.counts();
  parts.splice(k, parts.length - k, {
    from: part.from,
    to: markdown.length,
    line: part.line,
    continuesList: part.continuesList,
  });
  return parsePart(whole, k);
}

/**
 * The part's blocks end where it was cut, as in the whole review: no top-level fence runs to its
 * end (its closing line would be further on), and a part cut inside a long list ends in that list.
 */
function endsWhereCut(tokens: readonly Token[], text: string, part: ReviewPart): boolean {
  const lines = countNewlines(text);
  let list: Token | undefined;
  for (const token of tokens) {
    if (token.level !== 0 || !token.map) continue;
    if (token.type === 'fence' && token.map[1] >= lines) return false;
    // The list's own opening, not a chunk's (listChunks.ts), which spans no lines.
    if (token.type === 'bullet_list_open' && token.map[1] > token.map[0]) list = token;
  }
  if (part.listFrom === undefined) return true;
  return (
    tokens[tokens.length - 1]?.type === 'bullet_list_close' &&
    list !== undefined &&
    list.map![0] + part.line === part.listFrom &&
    list.map![1] >= lines
  );
}
