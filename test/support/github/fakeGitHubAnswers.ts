// The stand-in's answers, built from GitHub's own examples in its OpenAPI description with this
// repository's names, numbers and addresses put in.

import type { FakePull, FakePullFile, StoredComment, StoredReview } from './fakeGitHub';
import type { OpenApiContract } from './openApiContract';

export class GitHubAnswers {
  constructor(
    private readonly contract: OpenApiContract,
    private readonly owner: string,
    private readonly repo: string,
    private readonly apiUrl: () => string,
  ) {}

  private web(path: string): string {
    return `https://github.com/${this.owner}/${this.repo}${path}`;
  }

  private api(path: string): string {
    return `${this.apiUrl()}/repos/${this.owner}/${this.repo}${path}`;
  }

  pullJson(p: FakePull): unknown {
    const json = this.contract.example('pull-request-simple-items')[0];
    const closed = p.state === 'closed' ? '2026-11-01T10:00:00Z' : null;
    return {
      ...json,
      number: p.number,
      state: p.state,
      title: `Pull request ${p.number}`,
      html_url: this.web(`/pull/${p.number}`),
      url: this.api(`/pulls/${p.number}`),
      closed_at: closed,
      merged_at: p.merged ? closed : null,
      head: { ...json.head, ref: p.headRef, sha: p.headSha, label: `${this.owner}:${p.headRef}` },
      // GitHub's example lists a team without the `type` its own schema requires.
      requested_teams: [],
    };
  }

  fileJson(pull: FakePull, f: FakePullFile): unknown {
    const base = this.contract.example('diff-entry-items')[0];
    const counts = f.patch
      ? f.patch
          .split('\n')
          .reduce(
            (acc, line) => ({ add: acc.add + (line[0] === '+' ? 1 : 0), del: acc.del + (line[0] === '-' ? 1 : 0) }),
            { add: 0, del: 0 },
          )
      : { add: 0, del: 0 };
    const { patch: _unused, ...withoutPatch } = base;
    return {
      ...withoutPatch,
      filename: f.filename,
      status: f.status,
      additions: counts.add,
      deletions: counts.del,
      changes: counts.add + counts.del,
      blob_url: this.web(`/blob/${pull.headSha}/${f.filename}`),
      raw_url: this.web(`/raw/${pull.headSha}/${f.filename}`),
      contents_url: this.api(`/contents/${f.filename}?ref=${pull.headSha}`),
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
      ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
    };
  }

  commentJson(c: StoredComment): unknown {
    const json = this.contract.example('pull-request-review-comment-items')[0];
    return {
      ...json,
      id: c.id,
      pull_request_review_id: c.reviewId,
      path: c.path,
      line: c.line,
      original_line: c.line,
      side: c.side,
      start_line: c.startLine ?? null,
      original_start_line: c.startLine ?? null,
      start_side: c.startLine !== undefined ? c.side : null,
      body: c.body,
      user: { ...json.user, login: c.login },
      html_url: this.web(`/pull/${c.pull}#discussion_r${c.id}`),
      url: this.api(`/pulls/comments/${c.id}`),
    };
  }

  reviewJson(r: StoredReview): unknown {
    const json = this.contract.example('pull-request-review');
    return {
      ...json,
      id: r.id,
      body: r.body,
      state: 'COMMENTED',
      commit_id: r.commitId,
      user: { ...json.user, login: r.login },
      html_url: this.web(`/pull/${r.pull}#pullrequestreview-${r.id}`),
      pull_request_url: this.api(`/pulls/${r.pull}`),
      _links: {
        html: { href: this.web(`/pull/${r.pull}#pullrequestreview-${r.id}`) },
        pull_request: { href: this.api(`/pulls/${r.pull}`) },
      },
    };
  }
}
