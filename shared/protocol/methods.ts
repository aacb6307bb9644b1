// The method table: each IPC method's params and result schemas, and the types both sides take from it.

import { z } from 'zod';
import {
  GetDiagnosticsParams,
  GetDiagnosticsResult,
  GetSelectionResult,
  GetWorkspaceFoldersResult,
  ListOpenEditorsResult,
  OpenLocationParams,
  OpenLocationResult,
} from './editor';
import {
  FindWorkspaceFilesParams,
  FindWorkspaceFilesResult,
  GetEarlierReviewParams,
  GetEarlierReviewResult,
  ListGitRefsParams,
  ListGitRefsResult,
  ListReviewHistoryParams,
  ListReviewHistoryResult,
} from './history';
import { DEFAULT_TIMEOUT_MS } from './limits';
import { GetReviewFeedbackParams, GetReviewFeedbackResult } from './feedback';
import { GetReviewParams, GetReviewResult, PresentReviewParams, PresentReviewResult } from './reviews';
import { ExportReviewParams, ExportReviewResult, ImportReviewParams, ImportReviewResult } from './exchange';
import {
  AnswerFindingParams,
  AnswerFindingResult,
  GetReviewViewParams,
  GetReviewViewResult,
  RevealReviewParams,
  RevealReviewResult,
} from './chatView';

/** The params of a method that takes none: anything else is refused. */
export const NoParams = z.object({}).strict();

/**
 * Every request the MCP server can make. A handler table typed over this record makes a
 * missing handler a compile error; the timeout is how long the client waits for a reply.
 */
export const methods = {
  'present-review': { params: PresentReviewParams, result: PresentReviewResult, timeoutMs: 30_000 },
  'get-selection': { params: NoParams, result: GetSelectionResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'open-location': { params: OpenLocationParams, result: OpenLocationResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-review': { params: GetReviewParams, result: GetReviewResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-review-feedback': {
    params: GetReviewFeedbackParams,
    result: GetReviewFeedbackResult,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  },
  'get-diagnostics': { params: GetDiagnosticsParams, result: GetDiagnosticsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'list-open-editors': { params: NoParams, result: ListOpenEditorsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-workspace-folders': { params: NoParams, result: GetWorkspaceFoldersResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'list-review-history': {
    params: ListReviewHistoryParams,
    result: ListReviewHistoryResult,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  },
  'get-earlier-review': {
    params: GetEarlierReviewParams,
    result: GetEarlierReviewResult,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  },
  'list-git-refs': { params: ListGitRefsParams, result: ListGitRefsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'find-workspace-files': {
    params: FindWorkspaceFilesParams,
    result: FindWorkspaceFilesResult,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  },
  // Each finding's place is looked up in its file, as get-review does, before the text is written.
  'export-review': { params: ExportReviewParams, result: ExportReviewResult, timeoutMs: 30_000 },
  'import-review': { params: ImportReviewParams, result: ImportReviewResult, timeoutMs: 30_000 },
  // What the review's view in a chat asks (chatView.ts).
  'get-review-view': { params: GetReviewViewParams, result: GetReviewViewResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'answer-finding': { params: AnswerFindingParams, result: AnswerFindingResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'reveal-review': { params: RevealReviewParams, result: RevealReviewResult, timeoutMs: DEFAULT_TIMEOUT_MS },
} as const;
export type Method = keyof typeof methods;
export type ParamsOf<M extends Method> = z.input<(typeof methods)[M]['params']>;
export type ValidParamsOf<M extends Method> = z.output<(typeof methods)[M]['params']>;
export type ResultOf<M extends Method> = z.infer<(typeof methods)[M]['result']>;
export const methodNames = Object.keys(methods) as Method[];
