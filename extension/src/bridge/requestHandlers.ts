// What the extension does for each IPC method. Plain TypeScript: the parts that need the editor
// come in through `EditorSide`, which the extension implements with `vscode` and the
// integration tests with a stand-in. Domain errors (a review too large, a save that failed)
// become IPC errors here, at the bridge, and nowhere below it.

import {
  ErrorCode,
  IpcError,
  type GetDiagnosticsParams,
  type GetDiagnosticsResult,
  type GetSelectionResult,
  type FindWorkspaceFilesResult,
  type GetWorkspaceFoldersResult,
  type ListGitRefsResult,
  type ListOpenEditorsResult,
  type OpenLocationResult,
} from '../../../shared/protocol';
import type { RequestHandlers } from '../ipc/ipcConnection';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import { ReviewSaveError, ReviewTooLargeError } from '../review/reviewStore';

export interface EditorSide {
  getSelection(): Promise<GetSelectionResult> | GetSelectionResult;
  openLocation(reference: string, cwd: string | undefined): Promise<OpenLocationResult>;
  getDiagnostics(params: GetDiagnosticsParams): GetDiagnosticsResult;
  listOpenEditors(): ListOpenEditorsResult;
  getWorkspaceFolders(): GetWorkspaceFoldersResult;
  /** For completing prompt arguments: refs and files starting with (or containing) what was typed. */
  listGitRefs(prefix: string): Promise<ListGitRefsResult> | ListGitRefsResult;
  findWorkspaceFiles(prefix: string): Promise<FindWorkspaceFilesResult> | FindWorkspaceFilesResult;
}

/** Each assistant's review: a call reads and writes the caller's own. */
export type ReviewsSide = Pick<AssistantReviews, 'existing' | 'forAssistant' | 'lookup'>;

export function createRequestHandlers(reviews: ReviewsSide, renderer: ReviewRenderer, editor: EditorSide): RequestHandlers {
  return {
    'present-review': async (params) => {
      // Found without waiting, so that the change is applied before a request behind it is read.
      const owner = reviews.existing(params.assistant) ?? (await asIpcErrors(() => reviews.forAssistant(params.assistant)));
      const store = owner.store;
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
        findings: await owner.findings.presented(findings),
      };
    },
    'get-review': async (params) => {
      const owner = reviews.lookup(params.assistant);
      const review = owner?.store.current;
      const comparison = params.compareWithPrevious ? { comparison: (review && (await owner.history.compareWithPrevious(review))) ?? null } : {};
      if (!owner || !review) return { revision: 0, markdown: '', sections: [], findings: [], ...comparison };
      // Positions are looked up now, so they say where the code is after the user's edits.
      const findings = await owner.findings.current();
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
    // An assistant that has not presented has no feedback yet; "0" reads all of its first review's.
    'get-review-feedback': async (params) => reviews.lookup(params.assistant)?.conversation.since(params.since) ?? { cursor: '0', items: [] },
    'get-selection': () => editor.getSelection(),
    'open-location': (params) => editor.openLocation(params.reference, params.cwd),
    'get-diagnostics': (params) => editor.getDiagnostics(params),
    'list-open-editors': () => editor.listOpenEditors(),
    'get-workspace-folders': () => editor.getWorkspaceFolders(),
    // An assistant that has not presented has no history; nor does one the window does not know.
    'list-review-history': async (params) => ({ entries: (await reviews.lookup(params.assistant)?.history.list()) ?? [] }),
    'get-earlier-review': async (params) => {
      const earlier = await reviews.lookup(params.assistant)?.history.read(params.revision);
      if (!earlier) {
        throw new IpcError(ErrorCode.NotFound, `No earlier review with revision ${params.revision} is kept in this window; list them with resources/list.`);
      }
      return { revision: earlier.revision, title: earlier.title, updatedAt: earlier.updatedAt, markdown: earlier.markdown };
    },
    'list-git-refs': (params) => editor.listGitRefs(params.prefix),
    'find-workspace-files': (params) => editor.findWorkspaceFiles(params.prefix),
  };
}

/** The store's errors as the assistant gets them: a too-large change, or a save that failed. */
async function asIpcErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ReviewTooLargeError) throw new IpcError(ErrorCode.TooLarge, error.message);
    if (error instanceof ReviewSaveError) throw new IpcError(ErrorCode.Internal, error.message);
    if (error instanceof IpcError || !(error instanceof Error)) throw error;
    // A new assistant's review could not be set up (too many assistants, a folder not writable).
    throw new IpcError(ErrorCode.Internal, error.message);
  }
}
