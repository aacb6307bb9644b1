// Earlier reviews, and what the prompts' arguments complete from (git refs, files).

import { z } from 'zod';
import { Assistant } from './reviews';

export const ListReviewHistoryParams = z.object({ assistant: Assistant }).strict();
export type ListReviewHistoryParams = z.infer<typeof ListReviewHistoryParams>;

export const EarlierReviewEntry = z.object({
  /** The revision it had when it was current: it names the review for as long as it is kept. */
  revision: z.number().int().min(1),
  title: z.string().optional(),
  updatedAt: z.string(),
  /** Size of its markdown in UTF-8 bytes. */
  bytes: z.number().int().min(0),
});
export type EarlierReviewEntry = z.infer<typeof EarlierReviewEntry>;

/** Newest first; only what the window keeps (the `redline.historySize` setting). */
export const ListReviewHistoryResult = z.object({ entries: z.array(EarlierReviewEntry) });
export type ListReviewHistoryResult = z.infer<typeof ListReviewHistoryResult>;

export const GetEarlierReviewParams = z.object({ revision: z.number().int().min(1), assistant: Assistant }).strict();
export type GetEarlierReviewParams = z.infer<typeof GetEarlierReviewParams>;

/** NotFound when the window no longer keeps that revision. */
export const GetEarlierReviewResult = EarlierReviewEntry.omit({ bytes: true }).extend({ markdown: z.string() });
export type GetEarlierReviewResult = z.infer<typeof GetEarlierReviewResult>;

/** Completions return at most this many values: MCP's own limit for one completion result. */
export const MAX_COMPLETIONS = 100;

/** What the user has typed so far of a prompt argument. */
const CompletionPrefix = z.string().max(4096);

export const ListGitRefsParams = z.object({ prefix: CompletionPrefix }).strict();
export type ListGitRefsParams = z.infer<typeof ListGitRefsParams>;

export const GitRef = z.object({
  /** As git writes it short: "main", "origin/main", "v1.2". */
  name: z.string(),
  kind: z.enum(['head', 'branch', 'remote', 'tag']),
});
export type GitRef = z.infer<typeof GitRef>;

/** The workspace's refs starting with the prefix; `truncated` when there were more than MAX_COMPLETIONS. */
export const ListGitRefsResult = z.object({ refs: z.array(GitRef).max(MAX_COMPLETIONS), truncated: z.boolean() });
export type ListGitRefsResult = z.infer<typeof ListGitRefsResult>;

export const FindWorkspaceFilesParams = z.object({ prefix: CompletionPrefix }).strict();
export type FindWorkspaceFilesParams = z.infer<typeof FindWorkspaceFilesParams>;

/** Workspace-relative paths (with the folder's name first in a multi-root workspace). */
export const FindWorkspaceFilesResult = z.object({
  files: z.array(z.string()).max(MAX_COMPLETIONS),
  truncated: z.boolean(),
});
export type FindWorkspaceFilesResult = z.infer<typeof FindWorkspaceFilesResult>;
