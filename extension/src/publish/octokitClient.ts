// The REST client publishing talks to GitHub with: @octokit/rest, an ES module, loaded when the
// user first publishes (the extension's bundle inlines it; nothing of it runs at activation).

import type { Octokit } from '@octokit/rest' with { 'resolution-mode': 'import' };

export type GitHubClient = Octokit;

export interface ClientOptions {
  readonly token: string;
  readonly apiBaseUrl: string;
  readonly userAgent: string;
  /** Ends every request still running: the user cancelled, or the window closes. */
  readonly signal?: AbortSignal;
}

export async function createGitHubClient(options: ClientOptions): Promise<GitHubClient> {
  const { Octokit } = await import('@octokit/rest');
  return new Octokit({
    auth: options.token,
    baseUrl: options.apiBaseUrl,
    userAgent: options.userAgent,
    // Octokit logs a deprecation or a failed request with console.warn/error: the errors reach the user as messages instead.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    request: options.signal ? { signal: options.signal } : {},
  });
}
