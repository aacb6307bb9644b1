// The appends the panel has not sent yet. An append is rendered and posted on its own only while
// every step from what the webview shows to the current revision is known; anything else (a
// replace, a section update, a clear, or a log that outgrew its bounds) means a full render.

/** What the panel hears on every review change; the store's ReviewChange has this shape. */
export interface PanelChange {
  readonly kind: string;
  readonly previousRevision: number;
  readonly review?: { readonly revision: number };
  /** Set for an append: the text added at the end, and the 0-based line where it starts. */
  readonly appended?: { readonly markdown: string; readonly startLine: number };
}

export interface AppendStep {
  readonly previousRevision: number;
  readonly revision: number;
  readonly markdown: string;
  readonly startLine: number;
}

/** Past these, a full render is cheaper than replaying the steps, and memory stays bounded. */
export const MAX_APPEND_STEPS = 256;
export const MAX_APPEND_CHARS = 4 * 1024 * 1024;

export class AppendLog {
  private steps: AppendStep[] = [];
  private chars = 0;

  constructor(
    private readonly maxSteps = MAX_APPEND_STEPS,
    private readonly maxChars = MAX_APPEND_CHARS,
  ) {}

  record(change: PanelChange): void {
    const revision = change.review?.revision;
    if (change.kind !== 'append' || !change.appended || revision === undefined) {
      this.clear();
      return;
    }
    const { markdown, startLine } = change.appended;
    if (this.steps.length >= this.maxSteps || this.chars + markdown.length > this.maxChars) {
      this.clear();
      return;
    }
    this.steps.push({ previousRevision: change.previousRevision, revision, markdown, startLine });
    this.chars += markdown.length;
  }

  /** The steps that lead from `from` to `to`, or undefined when the chain is broken or empty. */
  chain(from: number, to: number): readonly AppendStep[] | undefined {
    const start = this.steps.findIndex((step) => step.previousRevision === from);
    if (start === -1) return undefined;
    const chain: AppendStep[] = [];
    let at = from;
    for (let i = start; i < this.steps.length && at !== to; i++) {
      if (this.steps[i].previousRevision !== at) return undefined;
      chain.push(this.steps[i]);
      at = this.steps[i].revision;
    }
    return at === to && chain.length > 0 ? chain : undefined;
  }

  /** Drops the steps the webview already has (up to and including `revision`). */
  forgetThrough(revision: number): void {
    const keep = this.steps.findIndex((step) => step.revision > revision);
    const dropped = keep === -1 ? this.steps : this.steps.slice(0, keep);
    for (const step of dropped) this.chars -= step.markdown.length;
    this.steps = keep === -1 ? [] : this.steps.slice(keep);
  }

  private clear(): void {
    this.steps = [];
    this.chars = 0;
  }
}
