// The review's cost as markdown-it makes it: every token (inline children included), every element
// the page will hold (references linked, table cells, line breaks), the bytes of link destinations
// and the cells of each table row, counted as the parser pushes them. A count past its limit in
// RENDER_BUDGET stops the parse there with a RenderBudgetError, so that one huge paragraph's inline
// parse cannot run unbounded: the render worker's counts, not the estimate before the parse, decide.

import type MarkdownIt from 'markdown-it';
import {
  describeExcess,
  RENDER_BUDGET,
  refusalOf,
  type Budget,
  type RenderMeasure,
} from '../../../shared/reviewBudget';
import { RenderBudgetError } from './pageBudget';

type Token = MarkdownIt.Token;

const COUNTER = Symbol('redline.renderCounter');

/** Tokens that become an element of the page (a text run does not; a line break does). */
export function isElement(token: Token): boolean {
  return token.nesting === 1 || (token.nesting === 0 && token.tag !== '');
}

export interface RenderCost {
  readonly tokens: number;
  readonly elements: number;
  readonly linkBytes: number;
}

interface Counts {
  readonly tokens: number;
  readonly elements: number;
}

/**
 * A part's own counts pass three stages: as the parser pushes tokens, after the first recount (text
 * joined) plus the references linked, and after the last recount. For a review parsed in parts
 * (reviewParts.ts), each stage is checked against the earlier parts' counts at the same stage,
 * so that a review is refused in parts exactly when it is refused whole.
 */
const STAGES = 3;
const NONE: Counts = { tokens: 0, elements: 0 };

/** One render's counts; lives in the parse's env, where the counting states find it. */
export class RenderCounter {
  /** The current part's own. */
  tokens = 0;
  elements = 0;
  linkBytes = 0;
  private stage = 0;
  /** The earlier parts' counts at the end of each stage. */
  private earlier: readonly Counts[] = [NONE, NONE, NONE];
  private readonly reached: Counts[] = [NONE, NONE, NONE];
  /** Where the current part lies in the review, as shares of its text: for an estimate's progress. */
  private span = { from: 0, share: 1 };
  /** Cells in the table row being parsed. */
  private rowCells = 0;
  /** The inline text of the whole review, and how much of it earlier inline parses covered. */
  private inlineTotal = 0;
  private inlineDone = 0;
  private inlineCurrent = 0;

  /** Counts `tokens` from index `from` on; `progress` says how far through the review the parse is (0–1), for an estimate. */
  add(tokens: readonly Token[], from: number, progress: () => number): void {
    for (let i = from; i < tokens.length; i++) {
      const token = tokens[i];
      this.tokens++;
      if (isElement(token)) this.elements++;
      if (token.type === 'tr_open') this.rowCells = 0;
      else if (token.type === 'td_open' || token.type === 'th_open') this.checkRow(++this.rowCells);
    }
    this.check(progress);
  }

  /** A link's destination, which the page repeats at each use. */
  addLink(href: string, progress: () => number): void {
    this.linkBytes += href.length;
    this.check(progress);
  }

  /** A reference linked in text after the parse: its link's opening and closing tokens, one element. */
  addReferenceLink(): void {
    this.tokens += 2;
    this.elements++;
    this.check(() => 1);
  }

  /** `references` have been found so far (parseSteps.ts). */
  checkReferences(references: number): void {
    const budget = RENDER_BUDGET.references;
    if (references > budget.limit)
      throw new RenderBudgetError(refusalOf(describeExcess(budget, references, { atLeast: true })));
  }

  /** The next part of the review is parsed with this env; it lies at `from` (0–1), a `share` of the review's text. */
  startPart(from: number, share: number): void {
    this.reached[this.stage] = { tokens: this.tokens, elements: this.elements };
    for (let stage = this.stage + 1; stage < STAGES; stage++) this.reached[stage] = this.reached[this.stage];
    this.earlier = this.earlier.map((counts, stage) => ({
      tokens: counts.tokens + this.reached[stage].tokens,
      elements: counts.elements + this.reached[stage].elements,
    }));
    this.tokens = this.elements = this.stage = this.inlineDone = this.inlineCurrent = this.inlineTotal = 0;
    this.span = { from, share };
  }

  /** What the whole render counted, once its last part is parsed. */
  total(): RenderCost {
    const earlier = this.earlier[STAGES - 1];
    return {
      tokens: earlier.tokens + this.tokens,
      elements: earlier.elements + this.elements,
      linkBytes: this.linkBytes,
    };
  }

  /** Puts the counts back to what they are now: for a part that is parsed again, with more text. */
  snapshot(): () => void {
    const saved = { ...this, reached: [...this.reached] };
    return () => Object.assign(this, saved);
  }

  /** Replaces the running counts with a count of the finished tokens (the post-processing joins and adds some). */
  recount(tokens: readonly Token[]): void {
    let all = 0;
    let elements = 0;
    for (const token of tokens) {
      all++;
      if (isElement(token)) elements++;
      for (const child of token.children ?? []) {
        all++;
        if (isElement(child)) elements++;
      }
    }
    if (this.stage < STAGES - 1) this.reached[this.stage++] = { tokens: this.tokens, elements: this.elements };
    this.tokens = all;
    this.elements = elements;
    this.check(() => 1);
  }

  startInline(total: number): void {
    this.inlineTotal = total;
  }

  /** A new inline parse of `length` characters begins; the one before it has ended. */
  nextInline(length: number): void {
    this.inlineDone += this.inlineCurrent;
    this.inlineCurrent = length;
  }

  /** How far through the review's inline text the parse is, at `pos` in the current inline. */
  inlineProgress(pos: number): number {
    return this.inlineTotal === 0 ? 1 : (this.inlineDone + pos) / this.inlineTotal;
  }

  private checkRow(cells: number): void {
    const budget = RENDER_BUDGET.tableColumns;
    if (cells > budget.limit)
      throw new RenderBudgetError(refusalOf(`a table row of ${describeExcess(budget, cells, { atLeast: true })}`));
  }

  private check(progress: () => number): void {
    const earlier = this.earlier[this.stage];
    for (const measure of ['tokens', 'elements', 'linkBytes'] as const satisfies readonly RenderMeasure[]) {
      const budget = RENDER_BUDGET[measure];
      const count = this[measure] + (measure === 'linkBytes' ? 0 : earlier[measure]);
      if (count > budget.limit)
        throw new RenderBudgetError(refusalOf(estimate(budget, count, this.span.from + this.span.share * progress())));
    }
  }
}

/** The count extrapolated to the whole review from how far the parse got, or "more than" when it cannot say. */
function estimate(budget: Budget, count: number, progress: number): string {
  if (progress >= 0.999) return describeExcess(budget, count);
  if (progress < 0.01) return describeExcess(budget, count, { atLeast: true });
  return `${describeExcess(budget, Math.round(count / progress))} (estimated from the first ${Math.round(progress * 100)}% of the review)`;
}

export function counterOf(env: unknown): RenderCounter | undefined {
  return (env as Record<symbol, RenderCounter | undefined> | undefined)?.[COUNTER];
}

/**
 * A parse env that counts: pass it to md.parse. The lines of `markdown` are counted first, exactly:
 * past their limit the parse's per-line tables alone would take long before any token is made.
 */
export function countingEnv<T extends object>(env: T, markdown: string): T {
  let lines = 1;
  for (let at = markdown.indexOf('\n'); at !== -1; at = markdown.indexOf('\n', at + 1)) lines++;
  const budget = RENDER_BUDGET.lines;
  if (lines > budget.limit) throw new RenderBudgetError(refusalOf(describeExcess(budget, lines)));
  return Object.assign(env, { [COUNTER]: new RenderCounter() });
}

/**
 * Counts as markdown-it parses: block and inline tokens as they are pushed (through states that
 * count), then a recount of the finished tokens before Redline's own rules run. Without a counter
 * in the env, the parse is not counted.
 */
export function installRenderBudget(md: MarkdownIt): void {
  class CountingBlockState extends md.block.State {
    override push(type: string, tag: string, nesting: Token['nesting']): Token {
      const before = this.tokens.length;
      const token = super.push(type, tag, nesting);
      const counter = counterOf(this.env);
      counter?.add(this.tokens, before, () => this.line / Math.max(this.lineMax, 1));
      return token;
    }
  }
  class CountingInlineState extends md.inline.State {
    // markdown-it's own arguments, passed on as they come: the source, the instance, the env, the tokens.
    constructor(...state: ConstructorParameters<typeof md.inline.State>) {
      super(...state);
      counterOf(this.env)?.nextInline(this.src.length);
    }

    override push(type: string, tag: string, nesting: Token['nesting']): Token {
      const counter = counterOf(this.env);
      if (counter === undefined) return super.push(type, tag, nesting);
      // Pending text first, through pushPending below, so that each token is counted once.
      if (this.pending) this.pushPending();
      return this.counted(counter, () => super.push(type, tag, nesting));
    }

    override pushPending(): Token {
      const counter = counterOf(this.env);
      return counter === undefined ? super.pushPending() : this.counted(counter, () => super.pushPending());
    }

    private counted(counter: RenderCounter, add: () => Token): Token {
      const progress = () => counter.inlineProgress(this.pos);
      // A link_open's destination is set just after its push: it is counted at the next token, which always follows.
      const last = this.tokens[this.tokens.length - 1];
      if (last?.type === 'link_open') counter.addLink(String(last.attrGet('href') ?? ''), progress);
      const before = this.tokens.length;
      const token = add();
      counter.add(this.tokens, before, progress);
      return token;
    }
  }
  md.block.State = CountingBlockState;
  md.inline.State = CountingInlineState;
  md.core.ruler.before('inline', 'redline_budget_inline', (state) => {
    const counter = counterOf(state.env);
    if (counter === undefined) return;
    let total = 0;
    for (const token of state.tokens) if (token.type === 'inline') total += token.content.length;
    counter.startInline(total);
  });
  md.core.ruler.after('text_join', 'redline_budget', (state) => {
    counterOf(state.env)?.recount(state.tokens);
  });
}
