// What the extension does for each IPC method. Plain TypeScript: the parts that need the editor
// come in through `EditorSide`, which the extension implements with `vscode` and the
// integration tests with a stand-in. Domain errors (a review too large, a save that failed)
// become IPC errors here, at the bridge, and nowhere below it.

import { ErrorCode, IpcError, type GetSelectionResult, type OpenLocationResult } from '../../../shared/protocol';
import type { RequestHandlers } from '../ipc/ipcConnection';
import type { ReviewFindings } from '../findings/reviewFindings';
import type { ReviewHistory } from '../history/reviewHistory';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { Conversation } from '../review/conversation';
import { ReviewSaveError, ReviewTooLargeError, type ReviewStore } from '../review/reviewStore';

export interface EditorSide {
  getSelection(): Promise<GetSelectionResult> | GetSelectionResult;
  openLocation(reference: string, cwd: string | undefined): Promise<OpenLocationResult>;
}

/** The review's findings and what the user said about them. */
export interface FeedbackSide {
  readonly findings: Pick<ReviewFindings, 'current' | 'presented'>;
  readonly conversation: Pick<Conversation, 'since'>;
  readonly history: Pick<ReviewHistory, 'compareWithPrevious'>;
}

export function createRequestHandlers(store: ReviewStore, renderer: ReviewRenderer, editor: EditorSide, feedback: FeedbackSide): RequestHandlers {
  return {
    'present-review': async (params) => {
      const sectionsBefore = params.mode === 'append' ? (store.current?.sections.length ?? 0) : 0;
      const { review, durable } = await asIpcErrors(async () => store.stage(params));
      // The report covers what this call sent (after an append, the new part only), with line
      // numbers in what the assistant sent, as the tool's text says. It is rendered while the
      // write is in flight, and a replace's render is the one the panel shows.
      const report = params.mode === 'replace' ? renderer.render(review) : renderer.renderFragment(params.content, review.cwd);
      report.catch(() => undefined);
      // A reply is a promise that a reload keeps the review: answer only once it is on disk.
      await asIpcErrors(() => durable);
      const { references, findings } = await report;
      return {
        revision: review.revision,
        title: review.title,
        sections: review.sections.slice(sectionsBefore),
        sectionCount: review.sections.length,
        references,
        findings: await feedback.findings.presented(findings),
      };
    },
    'get-review': async (params) => {
      const review = store.current;
      const comparison = params.compareWithPrevious ? { comparison: (await feedback.history.compareWithPrevious(review)) ?? null } : {};
      if (!review) return { revision: 0, markdown: '', sections: [], findings: [], ...comparison };
      // Positions are looked up now, so they say where the code is after the user's edits.
      const findings = await feedback.findings.current();
      return {
        revision: review.revision,
        title: review.title,
        markdown: review.markdown,
        sections: [...review.sections],
        updatedAt: review.updatedAt,
        findings,
        ...comparison,
      };
    },
    'get-review-feedback': (params) => feedback.conversation.since(params.since),
    'get-selection': () => editor.getSelection(),
    'open-location': (params) => editor.openLocation(params.reference, params.cwd),
  };
}

/** The store's errors as the assistant gets them: a too-large change, or a save that failed. */
async function asIpcErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ReviewTooLargeError) throw new IpcError(ErrorCode.TooLarge, error.message);
    if (error instanceof ReviewSaveError) throw new IpcError(ErrorCode.Internal, error.message);
    throw error;
  }
}
