// Publishes a review to its pull request: reads what GitHub holds (the diff, and what an earlier
// publish wrote), decides every comment's place before sending anything, then posts one review
// with what is new and updates what changed. Knows nothing of VS Code.

import type { ExportedReview } from '../../../shared/exchange/exportedReview';
import { repositoryPathOf, type BranchFacts } from './branchFacts';
import { fileDiffOf } from './diffHunks';
import { placeFindings, type Placement } from './findingPlacement';
import type { GitHubServer } from './githubServer';
import type { GitHubClient } from './octokitClient';
import { REVIEW_MARKER } from './publishMarkdown';
import { publishErrorOf } from './publishErrors';
import { planPublish, type BodyPlacement } from './publishPlan';
import { findPullRequest } from './pullRequestLookup';
import type { RemoteRepository } from './remoteUrl';
import { composeReviewBody } from './reviewBody';

export interface PublishRequest {
  readonly review: ExportedReview;
  readonly facts: BranchFacts;
  readonly repository: RemoteRepository;
  readonly server: GitHubServer;
  readonly client: GitHubClient;
  /** The signed-in account: only its own comments and reviews are read as Redline's. */
  readonly login?: string;
  readonly onProgress?: (step: string) => void;
}

export interface PublishOutcome {
  /** The new review, or the pull request when nothing new was posted. */
  readonly url: string;
  readonly pullRequest: number;
  readonly addedComments: number;
  readonly addedInBody: number;
  readonly changed: number;
  readonly left: number;
  /** Findings GitHub has no place for (files outside the repository), or that did not fit in the body. */
  readonly leftOut: number;
}

export async function publishReview(request: PublishRequest): Promise<PublishOutcome> {
  const { client, repository, facts, review } = request;
  const { owner, repo } = repository;
  const progress = request.onProgress ?? (() => {});
  let sent = false;
  const step = async <T>(doing: string, call: () => Promise<T>): Promise<T> => {
    progress(doing);
    try {
      return await call();
    } catch (error) {
      throw publishErrorOf(error, { doing, sentSoFar: sent });
    }
  };

  const pull = await step('finding the pull request', () => findPullRequest(client, repository, facts));
  const pull_number = pull.number;
  const files = await step("reading the pull request's diff", () =>
    client.paginate(client.rest.pulls.listFiles, { owner, repo, pull_number, per_page: 100 }),
  );
  const pathInRepository = repositoryPathOf(review.repositoryRoot, facts.root);
  const { placements, outsideRepository } = placeFindings({
    review,
    files: files.map(fileDiffOf),
    pathOf: (finding) => pathInRepository(finding.file),
    changedLocally: facts.changedFiles,
  });
  const mine = (user: { login: string } | null | undefined) =>
    request.login === undefined || user?.login === request.login;
  const comments = await step("reading the pull request's comments", () =>
    client.paginate(client.rest.pulls.listReviewComments, { owner, repo, pull_number, per_page: 100 }),
  );
  const reviews = await step("reading the pull request's reviews", () =>
    client.paginate(client.rest.pulls.listReviews, { owner, repo, pull_number, per_page: 100 }),
  );
  const earlierReviews = reviews.filter((r) => mine(r.user) && (r.body ?? '').startsWith(REVIEW_MARKER));
  const plan = planPublish({
    placements,
    comments: comments.filter((c) => mine(c.user)).map((c) => ({ id: c.id, body: c.body })),
    reviews: earlierReviews.map((r) => ({ id: r.id, body: r.body ?? '' })),
    linkOf: (placement) => linkOf(placement, { server: request.server, repository, headSha: pull.headSha }),
  });

  let url = pull.url;
  let sectionsShown = 0;
  if (plan.newComments.length > 0 || plan.newSections.length > 0) {
    const { body, sectionsShown: shown } = composeReviewBody({
      assistant: review.assistant,
      revision: review.revision,
      addsToEarlier: earlierReviews.length > 0,
      commentFindings: plan.newComments.map((c) => c.placement.item.finding),
      sections: plan.newSections.map((s) => ({ finding: s.placement.item.finding, section: s.section })),
      outsideRepository: outsideRepository.length,
    });
    sectionsShown = shown;
    const created = await step('posting the review', () =>
      client.rest.pulls.createReview({
        owner,
        repo,
        pull_number,
        commit_id: pull.headSha,
        event: 'COMMENT',
        body,
        comments: plan.newComments.map(({ placement, body: text }) => ({
          path: placement.item.path,
          line: placement.line,
          side: 'RIGHT',
          ...(placement.startLine !== undefined ? { start_line: placement.startLine, start_side: 'RIGHT' } : {}),
          body: text,
        })),
      }),
    );
    sent = true;
    url = created.data.html_url;
  }
  for (const update of plan.commentUpdates) {
    await step('updating a comment', () =>
      client.rest.pulls.updateReviewComment({ owner, repo, comment_id: update.id, body: update.body }),
    );
    sent = true;
  }
  for (const update of plan.reviewUpdates) {
    await step('updating an earlier review', () =>
      client.rest.pulls.updateReview({ owner, repo, pull_number, review_id: update.id, body: update.body }),
    );
    sent = true;
  }
  return {
    url,
    pullRequest: pull_number,
    addedComments: plan.newComments.length,
    addedInBody: sectionsShown,
    changed: plan.commentUpdates.length + plan.reviewUpdates.reduce((sum, update) => sum + update.keys.length, 0),
    left: plan.unchanged.length,
    leftOut: outsideRepository.length + plan.newSections.length - sectionsShown,
  };
}

/** The pull request's head commit, on the web. */
interface HeadOnTheWeb {
  readonly server: GitHubServer;
  readonly repository: RemoteRepository;
  readonly headSha: string;
}

/** The finding's lines at the pull request's head, on the web. */
function linkOf(placement: BodyPlacement, { server, repository, headSha }: HeadOnTheWeb) {
  const { path, finding } = placement.item;
  const start = Math.max(1, Math.min(finding.line, finding.endLine));
  const end = Math.max(start, finding.line, finding.endLine);
  const lines = start === end ? `L${start}` : `L${start}-L${end}`;
  const encodedPath = path.split('/').map(encodeURIComponent).join('/');
  return {
    url: `${server.webBaseUrl}/${repository.owner}/${repository.repo}/blob/${headSha}/${encodedPath}#${lines}`,
    label: `${path}#${lines}`,
  };
}

export type { Placement };
