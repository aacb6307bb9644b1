// present-review in the window: the change is applied (shown) in arrival order, saved, and
// answered with the report on its references and its findings once it is on disk. A review of
// LARGE_REVIEW_BYTES or more is rendered before it is shown, so that its render can be followed
// (progress) and stopped (cancel); a small one is shown as it arrives. A cancel stops the call only
// until the review is shown (commit()): see "A reply is a promise" in docs/ARCHITECTURE.md.

import {
  ErrorCode,
  IpcError,
  LARGE_REVIEW_BYTES,
  MAX_REPLY_SECTIONS,
  type PresentReviewResult,
  type Section,
  type ValidParamsOf,
} from '../../../shared/protocol';
import { budgetRefusal, formatCount } from '../../../shared/reviewBudget';
import type { RequestContext } from '../ipc/requestContract';
import { yieldThread } from '../../../shared/threadYield';
import { RenderBudgetError, type RenderedReview, type RenderStep } from '../render/markdownRenderer';
import type { FindingPlace, ReviewRenderer } from '../render/reviewRenderer';
import { countNewlines, withoutLeadingBlankLines } from '../render/sections';
import { numberAfter, type ReviewFinding } from '../render/findingExtraction';
import { StreamedPage } from '../render/streamedPage';
import { ArrivalOrder } from '../review/arrivalOrder';
import type { KnownSections } from '../review/compose';
import type { AssistantReviews } from '../review/assistantReviews';
import { ReviewSaveError, ReviewTooLargeError, type Review, type ReviewStore } from '../review/reviewStore';
import { mib, utf8Bytes } from '../../../shared/byteSize';
import { shortSectionTitle } from './reviewPages';

type Params = ValidParamsOf<'present-review'>;
type ReviewsSide = Pick<AssistantReviews, 'existing' | 'forAssistant'>;
type Report = (percent: number, message: string, newStep?: boolean) => void;

/** One present-review call, as its steps need it. */
interface PresentCall {
  readonly params: Params;
  readonly store: ReviewStore;
  readonly renderer: ReviewRenderer;
  readonly context: RequestContext;
  readonly report: Report;
}

/**
 * Where each step puts a large review's progress, out of 100: about each step's share of the call,
 * most of it in the parse and in writing the page's HTML.
 */
const Percent = {
  received: 0,
  parsed: 35,
  resolved: 38,
  findings: 39,
  writing: 40,
  written: 90,
  waiting: 92,
  shown: 95,
  stored: 100,
} as const;

export function presentReviewHandler(reviews: ReviewsSide, renderer: ReviewRenderer) {
  const orders = new WeakMap<ReviewStore, ArrivalOrder>();
  const orderOf = (store: ReviewStore) => orders.get(store) ?? orders.set(store, new ArrivalOrder()).get(store)!;

  return async (params: Params, context: RequestContext): Promise<PresentReviewResult> => {
    // Found without waiting, so that the change is applied before a request behind it is read.
    const owner =
      reviews.existing(params.assistant) ?? (await asIpcErrors(() => reviews.forAssistant(params.assistant)));
    const store = owner.store;
    const turn = orderOf(store).enter();
    let hideIncoming: (() => void) | undefined;
    // Each step is announced at once: the step after it may hold the thread for a while.
    const report: Report = (percent, message, newStep = true) =>
      context.progress({ progress: percent, total: 100, message }, { newStep });
    const call: PresentCall = { params, store, renderer, context, report };
    try {
      const bytes = utf8Bytes(params.content);
      report(Percent.received, `Received the review (${mib(bytes)} MiB)`);
      // Before anything parses it: its structure, not its bytes, is what a parse and a page cost. A
      // large review is measured in the render worker instead, as the first step of its render.
      const large = bytes >= LARGE_REVIEW_BYTES;
      const refusal = large ? undefined : budgetRefusal(params.content);
      if (refusal !== undefined) throw new IpcError(ErrorCode.TooLarge, refusal);
      // While it renders, the panel shows its page as it is written, in place of the review it replaces.
      const page = large && params.mode === 'replace' ? new StreamedPage() : undefined;
      hideIncoming =
        page &&
        owner.incoming.show({
          revision: store.revision + 1,
          title: params.title,
          markdown: params.content,
          cwd: params.cwd,
          page,
        });
      const early = large ? await renderFirst(call, page) : undefined;
      if (!turn.first) {
        report(Percent.waiting, "Waiting for this assistant's earlier changes to be applied");
        await turn.reached(context.signal).catch(() => undefined);
      }
      if (context.signal.aborted) throw cancelled();

      const sectionsBefore = params.mode === 'append' ? (store.current?.sections.length ?? 0) : 0;
      const base = params.mode === 'replace' ? undefined : store.current;
      const { review, durable, changedFrom } = stage(store, params, early?.sections);
      hideIncoming?.();
      context.commit();
      turn.leave();
      report(Percent.shown, 'Shown in the panel; saving it');
      // The report covers what this call sent (after an append, the new part only), with line
      // numbers in what the assistant sent, as the tool's text says. A replace's render is the
      // one the panel shows.
      const rendered = reportOf(review, call, early);
      // The part's findings carry the ids get-review gives them: a repeated text numbered after the ones above it.
      const taken = base && changedFrom !== undefined ? renderer.findingIdsAbove(base, changedFrom) : undefined;
      const numbered = rendered.then(async ({ findings }) =>
        taken ? numberAfter(findings, (await taken)!) : findings,
      );
      // Known before this call is answered, so that the next append (and the panel's part) number after them.
      if (params.mode === 'append' && base && changedFrom !== undefined)
        renderer.noteFindingPlaces(
          review,
          placesAfterAppend(renderer, { base, part: numbered, startLine: changedFrom, content: params.content }),
        );
      // Anchored while the review is written, not after: where each finding's code is now is read from
      // the files as soon as the findings are known (the review is shown, so they are its findings).
      const described = numbered.then((findings) => owner.findings.presented(findings));
      for (const promise of [rendered, taken, numbered, described]) promise?.catch(() => undefined);
      // A reply is a promise that a reload keeps the review: answer only once it is on disk.
      await asIpcErrors(() => durable);
      report(Percent.stored, 'Saved');
      const { references } = await rendered;
      return {
        revision: review.revision,
        title: review.title,
        sections: review.sections.slice(sectionsBefore, sectionsBefore + MAX_REPLY_SECTIONS).map(shortSectionTitle),
        sectionCount: review.sections.length,
        references,
        findings: await described,
      };
    } finally {
      hideIncoming?.();
      turn.leave();
    }
  };
}

interface EarlyRender {
  readonly rendered: Promise<RenderedReview>;
  /** What relative references were resolved against. */
  readonly cwd: string | undefined;
  /** The sections of what the call sent, found by the render worker for the store. */
  readonly sections: KnownSections | undefined;
}

/** Renders what the call sent before anything is shown, step by step, stopping when cancelled. */
async function renderFirst(call: PresentCall, page: StreamedPage | undefined): Promise<EarlyRender> {
  const { params, store, renderer, context, report } = call;
  // A cancel that has already arrived is read before the render starts.
  await yieldThread();
  if (context.signal.aborted) throw cancelled();
  // As the store will compose it: a replace keeps no earlier cwd; the other modes keep the current one.
  const cwd = params.cwd ?? (params.mode === 'replace' ? undefined : store.current?.cwd);
  const onProgress = (step: RenderStep) => {
    switch (step.step) {
      case 'parsed':
        return report(Percent.parsed, `Rendering: found ${formatCount(step.references)} references`);
      case 'resolving': {
        const share = step.resolved / step.references;
        return report(
          Percent.parsed + (Percent.resolved - Percent.parsed) * share,
          `References resolved: ${formatCount(step.resolved)} of ${formatCount(step.references)}`,
          false,
        );
      }
      case 'findings':
        return report(Percent.findings, `Marking findings in ${formatCount(step.candidates)} blocks`);
      case 'writing':
        return report(Percent.writing, 'Writing the page');
      case 'written':
        return report(
          Percent.writing + (Percent.written - Percent.writing) * step.share,
          `Rendering: ${Math.floor(step.share * 100)}% of the page written`,
          false,
        );
    }
  };
  const onSlice = page && ((html: string) => page.add(html));
  const rendered = renderer.renderFragment(params.content, cwd, {
    signal: context.signal,
    onProgress,
    onSlice,
    withSections: true,
    checkBudget: true,
  });
  let sectionsJson: string | undefined;
  try {
    sectionsJson = (await rendered).sectionsJson;
    page?.finish();
  } catch (error) {
    page?.fail();
    if (context.signal.aborted) throw cancelled();
    throw asIpcError(error);
  }
  // And one that arrived while the page was written, before the review is shown.
  await yieldThread();
  if (context.signal.aborted) throw cancelled();
  return {
    rendered,
    cwd,
    sections:
      sectionsJson === undefined
        ? undefined
        : { markdown: params.content, sections: JSON.parse(sectionsJson) as Section[] },
  };
}

interface AppendedPart {
  /** The review the append was made to. */
  readonly base: Review;
  /** The appended part's findings, numbered after the base's. */
  readonly part: Promise<readonly ReviewFinding[]>;
  /** The line of the new review that the part starts on. */
  readonly startLine: number;
  /** What the call sent. */
  readonly content: string;
}

/**
 * Where the findings of a review made by an append are: its base's, then the part's, moved to the
 * line the part starts on (the store drops the part's leading blank lines; the report's render did not).
 */
async function placesAfterAppend(
  renderer: ReviewRenderer,
  { base, part, startLine, content }: AppendedPart,
): Promise<FindingPlace[]> {
  const dropped = countNewlines(content) - countNewlines(withoutLeadingBlankLines(content));
  const [before, findings] = await Promise.all([renderer.placesOf(base), part]);
  return [
    ...(before ?? []),
    ...findings.map((finding) => ({ id: finding.id, line: startLine + finding.reviewLine - 1 - dropped })),
  ];
}

/** The render the reply's report comes from: the early one when it fits the review as composed. */
function reportOf(review: Review, call: PresentCall, early: EarlyRender | undefined): Promise<RenderedReview> {
  const { params, renderer } = call;
  if (early && early.cwd === review.cwd) {
    if (params.mode === 'replace') renderer.adopt(review, early.rendered);
    return early.rendered;
  }
  return params.mode === 'replace' ? renderer.render(review) : renderer.renderFragment(params.content, review.cwd);
}

/** Applies the change now; the store's refusal as the assistant reads it. */
function stage(store: ReviewStore, params: Params, known: KnownSections | undefined): ReturnType<ReviewStore['stage']> {
  try {
    return store.stage(params, known);
  } catch (error) {
    throw asIpcError(error);
  }
}

function cancelled(): IpcError {
  return new IpcError(
    ErrorCode.Cancelled,
    'present-review was cancelled before the review was shown; nothing changed.',
  );
}

async function asIpcErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw asIpcError(error);
  }
}

/** The store's errors as the assistant gets them: a too-large change, or a save that failed. */
function asIpcError(error: unknown): unknown {
  if (error instanceof ReviewTooLargeError || error instanceof RenderBudgetError)
    return new IpcError(ErrorCode.TooLarge, error.message);
  if (error instanceof ReviewSaveError) return new IpcError(ErrorCode.Internal, error.message);
  if (error instanceof IpcError || !(error instanceof Error)) return error;
  // A new assistant's review could not be set up (too many assistants, a folder not writable).
  return new IpcError(ErrorCode.Internal, error.message);
}
