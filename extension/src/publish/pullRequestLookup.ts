// The pull request of the branch being published, and the checks that its head is the code the
// review's anchors describe. Each refusal here comes before anything is sent.

import type { BranchFacts } from './branchFacts';
import type { GitHubClient } from './octokitClient';
import { PublishError } from './publishErrors';
import type { RemoteRepository } from './remoteUrl';

export interface PullRequestInfo {
  readonly number: number;
  readonly url: string;
  readonly headSha: string;
}

export async function findPullRequest(
  client: GitHubClient,
  repository: RemoteRepository,
  facts: BranchFacts,
): Promise<PullRequestInfo> {
  const { owner, repo } = repository;
  const branch = facts.upstream.branch;
  const { data } = await client.rest.pulls.list({
    owner,
    repo,
    head: `${owner}:${branch}`,
    state: 'all',
    sort: 'updated',
    direction: 'desc',
    per_page: 30,
  });
  const open = data.find((pull) => pull.state === 'open');
  if (!open) {
    const closed = data[0];
    if (closed) {
      const how = closed.merged_at ? 'merged' : 'closed';
      throw new PublishError(
        `The pull request of "${branch}", #${closed.number}, is ${how}: GitHub takes no new review on it. Reopen it or open a new one, then publish again.`,
        'pull-request-closed',
      );
    }
    throw new PublishError(
      `${owner}/${repo} has no pull request for the branch "${branch}": open one, then publish again.`,
      'no-pull-request',
    );
  }
  if (open.head.sha !== facts.headSha) {
    const what = facts.aheadOfUpstream
      ? `your branch has commits that are not pushed: push them`
      : `the pull request's head is ${open.head.sha.slice(0, 7)} and your checkout is at ${facts.headSha.slice(0, 7)}: pull or check out the pull request's head`;
    throw new PublishError(
      `The review's lines are those of your checkout, and ${what}, so that they match the pull request's, then publish again.`,
      'head-mismatch',
    );
  }
  return { number: open.number, url: open.html_url, headSha: open.head.sha };
}
