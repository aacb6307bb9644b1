// Redline: Publish Review to Pull Request…: the review this window shows, posted as a review of
// the current branch's pull request. Everything that can be refused is refused before the first
// request that changes anything; the user sees a progress notification, then the review's URL.
// Replies and states a file brought in are never posted as the user's without asking first
// (importedAnswers.ts): they go marked as imported, or are left out, as the user says.

import * as vscode from 'vscode';
import type { ExportedReview } from '../../../shared/exchange/exportedReview';
import type { Logger } from '../../../shared/logger';
import { REDLINE_VERSION } from '../../../shared/version';
import { readBranchFacts } from './branchFacts';
import { outcomeText } from './outcomeText';
import { githubServerFor } from './githubServer';
import { signInToGitHub } from './githubSignIn';
import { createGitHubClient } from './octokitClient';
import { PublishError } from './publishErrors';
import { importedAnswersOf, importedQuestion, withoutImportedAnswers } from './importedAnswers';
import { serverChoice } from './publishSettings';
import { parseRemoteUrl } from './remoteUrl';
import { publishReview, type PublishOutcome } from './reviewPublisher';

export interface PublishDeps {
  /** The review the panel shows, as it leaves the window; undefined when there is none. */
  readonly exportReview: () => Promise<ExportedReview | undefined>;
  /** Asks what to do with imported replies and states (tests answer it); the modal question by default. */
  readonly askAboutImported?: (question: string) => Thenable<string | undefined>;
  /** Where to look for the repository when the review names no root. */
  readonly workspaceFolder: () => string | undefined;
  readonly log: Logger;
}

export const PUBLISH_IMPORTED = 'Publish Them, Marked as Imported';
export const LEAVE_IMPORTED_OUT = 'Leave Them Out';

export async function publishReviewToPullRequest(deps: PublishDeps): Promise<void> {
  try {
    const exported = await deps.exportReview();
    const review = exported && (await decideImported(deps, exported));
    if (exported && !review) return; // the user cancelled: nothing was sent
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Redline: publishing the review', cancellable: true },
      (progress, token) =>
        publishWithProgress(deps, review, { report: (step) => progress.report({ message: step }), token }),
    );
    const open = 'Open on GitHub';
    const choice = await vscode.window.showInformationMessage(`Redline: ${outcomeText(outcome)} ${outcome.url}`, open);
    if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(outcome.url));
  } catch (error) {
    const message =
      error instanceof PublishError ? error.message : `Publishing failed: ${(error as Error)?.message ?? error}`;
    deps.log.error(message);
    void vscode.window.showErrorMessage(`Redline: ${message}`);
  }
}

/** The review to publish once the user said what to do with what a file brought in; undefined when they cancelled. */
async function decideImported(deps: PublishDeps, review: ExportedReview): Promise<ExportedReview | undefined> {
  const imported = importedAnswersOf(review);
  if (imported.replies + imported.states === 0) return review;
  const ask =
    deps.askAboutImported ??
    ((question: string) =>
      vscode.window.showWarningMessage(`Redline: ${question}`, { modal: true }, PUBLISH_IMPORTED, LEAVE_IMPORTED_OUT));
  const choice = await ask(importedQuestion(imported));
  if (choice === PUBLISH_IMPORTED) return review;
  if (choice === LEAVE_IMPORTED_OUT) return withoutImportedAnswers(review);
  return undefined;
}

async function publishWithProgress(
  deps: PublishDeps,
  review: ExportedReview | undefined,
  { report, token }: { report: (step: string) => void; token: vscode.CancellationToken },
): Promise<PublishOutcome> {
  if (!review)
    throw new PublishError(
      'This window shows no review: ask your assistant for one, then publish it.',
      'nothing-to-publish',
    );
  if (review.findings.length === 0)
    throw new PublishError('The review has no findings to publish.', 'nothing-to-publish');
  const folder = review.repositoryRoot || deps.workspaceFolder();
  if (!folder)
    throw new PublishError("Open the repository's folder in this window, then publish again.", 'no-repository');
  report('reading the branch');
  const facts = await readBranchFacts(folder);
  const repository = parseRemoteUrl(facts.remoteUrl);
  if (!repository) {
    throw new PublishError(
      `The remote "${facts.upstream.remote}" (${facts.remoteUrl}) does not name a GitHub repository as owner/name.`,
      'unknown-server',
    );
  }
  const choice = githubServerFor(repository.host, serverChoice());
  if ('refusal' in choice) throw new PublishError(choice.refusal, 'unknown-server');
  report('signing in to GitHub');
  const signIn = await signInToGitHub(choice.server);
  const abort = new AbortController();
  // Cancel pressed while signing in counts too: the first request is then not sent.
  if (token.isCancellationRequested) abort.abort();
  const cancelled = token.onCancellationRequested(() => abort.abort());
  try {
    const client = await createGitHubClient({
      token: signIn.token,
      apiBaseUrl: choice.server.apiBaseUrl,
      userAgent: `redline/${REDLINE_VERSION}`,
      signal: abort.signal,
    });
    return await publishReview({
      review,
      facts,
      repository,
      server: choice.server,
      client,
      login: signIn.login,
      onProgress: report,
    });
  } finally {
    cancelled.dispose();
  }
}
