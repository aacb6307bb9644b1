// One render as data: what goes to the render worker and what comes back, and the engine that
// runs it. The host decides where references are looked for (the roots); the engine parses,
// checks the files, finds the findings and writes the HTML. Two engines: the worker pool
// (renderWorkerPool.ts), which the window uses so that its thread is never held, and this
// thread, which unit tests and benchmarks use to measure the render itself.

import { Disposable, type IDisposable } from '../../../shared/lifecycle';
import { budgetRefusal } from '../../../shared/reviewBudget';
import { LineCountCache } from './fileFacts';
import { RenderBudgetError } from './pageBudget';
import { renderReview, type RenderedReview, type RenderStep } from './markdownRenderer';
import { ReferenceResolver } from './referenceResolver';
import { findSections, toSections } from './sections';

export interface RenderJob {
  readonly markdown: string;
  /** Where relative references are looked for, in order (ReviewRenderer.roots). */
  readonly roots: readonly string[];
  readonly lineOffset?: number;
  /** Finding ids the rest of the review already uses (for an appended part). */
  readonly takenFindingIds?: readonly string[];
  /** Also find the markdown's sections, which the store needs, so that the host need not parse it. */
  readonly withSections?: boolean;
  /** First refuse markdown over the review's cost budget (RenderBudgetError), as the host would. */
  readonly checkBudget?: boolean;
  /** Files open with unsaved changes, as [path, text]: suggestions show their diff against that text. */
  readonly unsaved?: ReadonlyArray<readonly [string, string]>;
}

/** A render, with the markdown's sections when the job asked for them. */
export interface RenderOutcome extends RenderedReview {
  /**
   * The sections (Section[]) as JSON: one string crosses from the worker to the window's thread
   * much faster than tens of thousands of small objects, which held that thread.
   */
  readonly sectionsJson?: string;
}

export interface RenderControl {
  /** Stops the render at once, rejecting with the signal's reason. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (step: RenderStep) => void;
  /**
   * Told each slice of the page as soon as it is written, in order, while the rest of the review is
   * still being rendered: the panel shows the first screen without waiting for the whole.
   */
  readonly onSlice?: (html: string) => void;
  /** With onSlice: the render keeps no copy of the page, and answers with empty `html` (the render worker's way). */
  readonly slicesOnly?: boolean;
}

/** Runs renders; its owner (the ReviewRenderer) releases it. */
export interface RenderEngine extends IDisposable {
  render(job: RenderJob, control?: RenderControl): Promise<RenderOutcome>;
}

/** Host → worker. */
export interface RenderRequest {
  readonly id: number;
  readonly job: RenderJob;
  /** Send the page's slices as they are written ('chunk'); 'done' then carries no HTML, which the host has. */
  readonly stream?: boolean;
}

/** Worker → host: progress and the page's slices, then the render or why it failed. */
export type RenderReply =
  | { readonly id: number; readonly kind: 'progress'; readonly step: RenderStep }
  | { readonly id: number; readonly kind: 'chunk'; readonly html: string }
  | { readonly id: number; readonly kind: 'done'; readonly rendered: RenderOutcome }
  | { readonly id: number; readonly kind: 'failed'; readonly name: string; readonly message: string };

/** Runs the job here, with `cache` kept across jobs so that line counts are not recounted. */
export async function runRenderJob(
  job: RenderJob,
  cache: LineCountCache,
  control: RenderControl = {},
): Promise<RenderOutcome> {
  const refusal = job.checkBudget ? budgetRefusal(job.markdown) : undefined;
  if (refusal !== undefined) throw new RenderBudgetError(refusal);
  const rendered = await renderReview(job.markdown, new ReferenceResolver(job.roots, { cache }), {
    lineOffset: job.lineOffset,
    takenFindingIds: job.takenFindingIds && new Set(job.takenFindingIds),
    unsaved: job.unsaved && new Map(job.unsaved),
    signal: control.signal,
    onProgress: control.onProgress,
    onSlice: control.onSlice,
    slicesOnly: control.slicesOnly,
  });
  // A suggestion's fence tokens serve the render only; they do not cross to the host.
  const findings = rendered.findings.map((finding) => ({ ...finding, suggestionTokens: [] }));
  return {
    ...rendered,
    findings,
    ...(job.withSections ? { sectionsJson: JSON.stringify(toSections(findSections(job.markdown))) } : {}),
  };
}

/** On this thread: for unit tests, the render benchmark and the window's small renders; it holds nothing to release. */
export class InThreadRenderEngine extends Disposable implements RenderEngine {
  constructor(private readonly cache = new LineCountCache()) {
    super();
  }

  render(job: RenderJob, control?: RenderControl): Promise<RenderOutcome> {
    return runRenderJob(job, this.cache, control);
  }
}
