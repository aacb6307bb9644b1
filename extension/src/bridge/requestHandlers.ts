// What the extension does for each IPC method. Plain TypeScript: the parts that need the editor
// come in through `EditorSide`, which the extension implements with `vscode` and the
// integration tests with a stand-in. Domain errors (a review too large, a save that failed)
// become IPC errors at the bridge (presentReview.ts), and nowhere below it.

import {
  ErrorCode,
  IpcError,
  type FindWorkspaceFilesResult,
  type GetDiagnosticsParams,
  type GetDiagnosticsResult,
  type GetSelectionResult,
  type GetWorkspaceFoldersResult,
  type ListGitRefsResult,
  type ListOpenEditorsResult,
  type OpenLocationResult,
} from '../../../shared/protocol';
import type { RequestHandlers } from '../ipc/requestContract';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import { exportReviewHandler } from './exportReview';
import { feedbackPage } from './feedbackPage';
import { getReviewPage } from './getReview';
import { importReviewHandler } from './importReview';
import { presentReviewHandler } from './presentReview';
import { answerFinding, getReviewView } from './reviewView';

export interface EditorSide {
  getSelection(): Promise<GetSelectionResult> | GetSelectionResult;
  openLocation(reference: string, cwd: string | undefined): Promise<OpenLocationResult>;
  getDiagnostics(params: GetDiagnosticsParams): GetDiagnosticsResult;
  listOpenEditors(): ListOpenEditorsResult;
  getWorkspaceFolders(): GetWorkspaceFoldersResult;
  /** For completing prompt arguments: refs and files starting with (or containing) what was typed. */
  listGitRefs(prefix: string): Promise<ListGitRefsResult> | ListGitRefsResult;
  findWorkspaceFiles(prefix: string): Promise<FindWorkspaceFilesResult> | FindWorkspaceFilesResult;
  /** Brings the panel to the front on the assistant's review (at the finding); false when it has none. */
  revealReview(assistant: string | undefined, findingId: string | undefined): boolean;
}

/** Each assistant's review: a call reads and writes the caller's own. */
export type ReviewsSide = Pick<AssistantReviews, 'existing' | 'forAssistant' | 'lookup'>;

export function createRequestHandlers(
  reviews: ReviewsSide,
  renderer: ReviewRenderer,
  editor: EditorSide,
): RequestHandlers {
  const present = presentReviewHandler(reviews, renderer);
  return {
    'present-review': present,
    'get-review': (params) => getReviewPage(reviews, params),
    // An assistant that has not presented has no feedback yet; "0" reads all of its first review's.
    'get-review-feedback': async (params) =>
      feedbackPage(reviews.lookup(params.assistant)?.conversation.since(params.since) ?? { cursor: '0', items: [] }),
    'get-selection': () => editor.getSelection(),
    'open-location': (params) => editor.openLocation(params.reference, params.cwd),
    'get-diagnostics': (params) => editor.getDiagnostics(params),
    'list-open-editors': () => editor.listOpenEditors(),
    'get-workspace-folders': () => editor.getWorkspaceFolders(),
    // An assistant that has not presented has no history; nor does one the window does not know.
    'list-review-history': async (params) => ({
      entries: (await reviews.lookup(params.assistant)?.history.list()) ?? [],
    }),
    'get-earlier-review': async (params) => {
      const earlier = await reviews.lookup(params.assistant)?.history.read(params.revision);
      if (!earlier) {
        throw new IpcError(
          ErrorCode.NotFound,
          `No earlier review with revision ${params.revision} is kept in this window; list them with resources/list.`,
        );
      }
      return {
        revision: earlier.revision,
        title: earlier.title,
        updatedAt: earlier.updatedAt,
        markdown: earlier.markdown,
      };
    },
    'list-git-refs': (params) => editor.listGitRefs(params.prefix),
    'find-workspace-files': (params) => editor.findWorkspaceFiles(params.prefix),
    'export-review': exportReviewHandler(reviews, renderer),
    'import-review': importReviewHandler(reviews, renderer, present),
    'get-review-view': (params) => getReviewView(reviews, params),
    'answer-finding': (params) => answerFinding(reviews, params),
    'reveal-review': async (params) => ({ shown: editor.revealReview(params.assistant, params.findingId) }),
  };
}
