// A stand-in for GitHub's REST API on a loopback port, for the endpoints publishing uses. It keeps
// its pull requests, reviews and comments in memory, answers as GitHub does (its answers are built
// from GitHub's own examples), refuses a comment outside the diff with 422 as GitHub does, and
// checks every request and every answer against GitHub's OpenAPI description: whatever that does
// not allow is kept in `violations`, which every test expects empty.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { parsePatch } from '../../../extension/src/publish/diffHunks';
import { GitHubAnswers } from './fakeGitHubAnswers';
import { OpenApiContract, type Operation } from './openApiContract';

export interface FakePullFile {
  readonly filename: string;
  readonly status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  readonly patch?: string;
  readonly previous_filename?: string;
}

export interface FakePull {
  readonly number: number;
  state: 'open' | 'closed';
  merged?: boolean;
  readonly headRef: string;
  headSha: string;
  readonly files: FakePullFile[];
}

export interface StoredComment {
  readonly id: number;
  readonly pull: number;
  readonly reviewId: number;
  readonly path: string;
  readonly line: number;
  readonly startLine?: number;
  readonly side: string;
  body: string;
  readonly login: string;
}

export interface StoredReview {
  readonly id: number;
  readonly pull: number;
  body: string;
  readonly commitId: string;
  readonly login: string;
}

/** A review comment as a request carries it. */
interface CommentBody {
  readonly path: string;
  readonly line: number;
  readonly start_line?: number;
  readonly side?: string;
  readonly start_side?: string;
  readonly body: string;
}

/** The fields this stand-in reads from a request body that passed the OpenAPI check. */
interface RequestBody {
  readonly body?: string;
  readonly event?: string;
  readonly commit_id?: string;
  readonly comments?: readonly CommentBody[];
}

export interface SeenRequest {
  readonly method: string;
  readonly operationId: string;
  readonly path: string;
  readonly query: string;
  readonly body: unknown;
  readonly status: number;
}

/** A fault for the next request that `matches`: an answer of GitHub's choosing, or the connection cut. */
export interface Fault {
  readonly matches: (method: string, operationId: string) => boolean;
  readonly answer: { status: number; headers?: Record<string, string>; body: unknown } | 'cut';
}

const ROUTES: readonly { method: string; template: string; pattern: RegExp }[] = [
  ['GET', '/repos/{owner}/{repo}/pulls'],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/files'],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/comments'],
  ['GET', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['POST', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews'],
  ['PUT', '/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}'],
  ['PATCH', '/repos/{owner}/{repo}/pulls/comments/{comment_id}'],
].map(([method, template]) => ({
  method,
  template,
  pattern: new RegExp(`^${template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

let sharedContract: OpenApiContract | undefined;

export class FakeGitHub {
  readonly pulls: FakePull[] = [];
  readonly comments: StoredComment[] = [];
  readonly reviews: StoredReview[] = [];
  readonly requests: SeenRequest[] = [];
  readonly violations: string[] = [];
  readonly faults: Fault[] = [];
  /** Every comment a review was posted with that lies outside the diff (GitHub's 422); none expected. */
  readonly outsideDiff: string[] = [];
  private nextId = 1000;
  private server?: Server;
  private readonly contract: OpenApiContract;
  private readonly answers: GitHubAnswers;

  constructor(
    readonly owner: string,
    readonly repo: string,
    readonly options: { token: string; login: string; specFile?: string } = {
      token: 'gho_fake_token',
      login: 'octocat',
    },
  ) {
    sharedContract ??= new OpenApiContract(options.specFile);
    this.contract = sharedContract;
    this.answers = new GitHubAnswers(this.contract, owner, repo, () => this.url);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) =>
      this.handle(req, res).catch((error: unknown) => {
        this.violations.push(`${req.method} ${req.url}: ${(error as Error)?.message ?? error}`);
        res.destroy();
      }),
    );
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The requests that changed something on the pull request. */
  get writes(): SeenRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const route = ROUTES.find((r) => r.method === method && r.pattern.test(url.pathname));
    const text = await readBody(req);
    if (!route) {
      this.violations.push(`${method} ${url.pathname}: not an endpoint publishing is expected to use`);
      return this.send(res, undefined, 404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    const operation = this.contract.operation(method, route.template);
    const params = route.pattern.exec(url.pathname)?.groups ?? {};
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      this.violations.push(`${operation.operationId}: the request body is not JSON`);
    }
    const problems = this.contract.checkRequest(operation, params, url.searchParams, body);
    this.violations.push(...problems);
    const record = (status: number) =>
      this.requests.push({
        method,
        operationId: operation.operationId,
        path: url.pathname,
        query: url.search,
        body,
        status,
      });

    if (req.headers.authorization !== `token ${this.options.token}`) {
      record(401);
      return this.send(res, operation, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    const faultIndex = this.faults.findIndex((f) => f.matches(method, operation.operationId));
    if (faultIndex >= 0) {
      const [fault] = this.faults.splice(faultIndex, 1);
      if (fault.answer === 'cut') {
        record(0);
        req.socket.destroy();
        return;
      }
      record(fault.answer.status);
      return this.send(res, operation, fault.answer.status, fault.answer.body, fault.answer.headers);
    }
    if (params.owner !== this.owner || params.repo !== this.repo) {
      record(404);
      return this.send(res, operation, 404, {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest',
      });
    }
    const answer =
      problems.length > 0
        ? {
            status: 422,
            body: { message: 'Validation Failed', errors: problems, documentation_url: 'https://docs.github.com/rest' },
          }
        : this.answer(operation, params, url.searchParams, (body ?? {}) as RequestBody);
    record(answer.status);
    this.send(res, operation, answer.status, answer.body, answer.headers);
  }

  private answer(
    operation: Operation,
    params: Record<string, string>,
    query: URLSearchParams,
    body: RequestBody,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const pull = this.pulls.find((p) => p.number === Number(params.pull_number));
    const notFound = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' } };
    switch (operation.operationId) {
      case 'pulls/list': {
        const head = query.get('head');
        const state = query.get('state') ?? 'open';
        const found = this.pulls.filter(
          (p) => (!head || head === `${this.owner}:${p.headRef}`) && (state === 'all' || p.state === state),
        );
        return this.page(
          found.map((p) => this.answers.pullJson(p)),
          query,
          `/repos/${this.owner}/${this.repo}/pulls`,
        );
      }
      case 'pulls/list-files':
        if (!pull) return notFound;
        return this.page(
          pull.files.map((f) => this.answers.fileJson(pull, f)),
          query,
          `/repos/${this.owner}/${this.repo}/pulls/${pull.number}/files`,
        );
      case 'pulls/list-review-comments':
        if (!pull) return notFound;
        return this.page(
          this.comments.filter((c) => c.pull === pull.number).map((c) => this.answers.commentJson(c)),
          query,
          `/repos/${this.owner}/${this.repo}/pulls/${pull.number}/comments`,
        );
      case 'pulls/list-reviews':
        if (!pull) return notFound;
        return this.page(
          this.reviews.filter((r) => r.pull === pull.number).map((r) => this.answers.reviewJson(r)),
          query,
          `/repos/${this.owner}/${this.repo}/pulls/${pull.number}/reviews`,
        );
      case 'pulls/create-review':
        return pull ? this.createReview(pull, body) : notFound;
      case 'pulls/update-review': {
        const review = this.reviews.find((r) => r.id === Number(params.review_id) && r.pull === pull?.number);
        if (!review) return notFound;
        review.body = String(body.body);
        return { status: 200, body: this.answers.reviewJson(review) };
      }
      case 'pulls/update-review-comment': {
        const comment = this.comments.find((c) => c.id === Number(params.comment_id));
        if (!comment) return notFound;
        if (comment.login !== this.options.login)
          return {
            status: 403,
            body: {
              message: 'Must have admin rights to Repository.',
              documentation_url: 'https://docs.github.com/rest',
            },
          };
        comment.body = String(body.body);
        return { status: 200, body: this.answers.commentJson(comment) };
      }
      default:
        return notFound;
    }
  }

  /** GitHub's rules for a review: a comment lies in one hunk of its file, on the side it names. */
  private createReview(pull: FakePull, body: RequestBody): { status: number; body: unknown } {
    const refuse = (message: string) => ({
      status: 422,
      body: { message: 'Unprocessable Entity', errors: [message], documentation_url: 'https://docs.github.com/rest' },
    });
    if (pull.state !== 'open') return refuse('Can not add a review to a closed pull request');
    if ((body.event === 'COMMENT' || body.event === 'REQUEST_CHANGES') && !body.body)
      return refuse('Body is required for this event');
    const comments = body.comments ?? [];
    for (const comment of comments) {
      const file = pull.files.find((f) => f.filename === comment.path);
      const hunks = file?.patch ? (parsePatch(file.patch) ?? []) : [];
      const side = comment.side ?? 'RIGHT';
      const start = comment.start_line ?? comment.line;
      const inOneHunk = hunks.some((h) => {
        const range = side === 'LEFT' ? h.left : h.right;
        return range !== undefined && range.start <= start && comment.line <= range.end;
      });
      if (comment.start_line !== undefined && (comment.start_side ?? side) !== side)
        return refuse('start_side must match side');
      if (!inOneHunk) {
        this.outsideDiff.push(`${comment.path}:${start}-${comment.line}`);
        return refuse('Pull request review thread line must be part of the diff');
      }
    }
    const review: StoredReview = {
      id: this.nextId++,
      pull: pull.number,
      body: String(body.body ?? ''),
      commitId: body.commit_id ?? pull.headSha,
      login: this.options.login,
    };
    this.reviews.push(review);
    for (const c of comments) {
      this.comments.push({
        id: this.nextId++,
        pull: pull.number,
        reviewId: review.id,
        path: c.path,
        line: c.line,
        startLine: c.start_line,
        side: c.side ?? 'RIGHT',
        body: String(c.body),
        login: this.options.login,
      });
    }
    return { status: 200, body: this.answers.reviewJson(review) };
  }

  private page(items: unknown[], query: URLSearchParams, path: string) {
    const perPage = Math.min(100, Number(query.get('per_page') ?? 30));
    const page = Number(query.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const headers: Record<string, string> = {};
    if (page < last) {
      const link = (n: number) =>
        `<${this.url}${path}?${new URLSearchParams({ ...Object.fromEntries(query), page: String(n) })}>`;
      headers.link = `${link(page + 1)}; rel="next", ${link(last)}; rel="last"`;
    }
    return { status: 200, body: items.slice((page - 1) * perPage, page * perPage), headers };
  }

  private send(
    res: ServerResponse,
    operation: Operation | undefined,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    if (operation) this.violations.push(...this.contract.checkResponse(operation, status, body));
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('request body over 4 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
