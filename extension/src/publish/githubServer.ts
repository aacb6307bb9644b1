// Which GitHub server a remote's host is, and so which sign-in and API address publishing uses.
// The token goes only to the server that issued it: github.com's to api.github.com, and the
// Enterprise sign-in's to the host the user configured it for in `github-enterprise.uri`.

export type AuthProviderId = 'github' | 'github-enterprise';

export interface GitHubServer {
  /** VS Code's authentication provider that holds the user's sign-in to this server. */
  readonly authProviderId: AuthProviderId;
  /** Where the web pages are: the links in a review's body point here. */
  readonly webBaseUrl: string;
  /** Where the REST API is. */
  readonly apiBaseUrl: string;
}

export interface ServerChoice {
  /** The `github-enterprise.uri` setting, which VS Code's Enterprise sign-in reads. */
  readonly enterpriseUri?: string;
  /**
   * The tests' stand-in for the API: only from the extension host's environment, and only on this
   * machine (see TEST_API_ENV in publishSettings.ts for why that cannot send a token elsewhere).
   */
  readonly testApiUrl?: string;
}

export type ServerResult = { readonly server: GitHubServer } | { readonly refusal: string };

export function githubServerFor(host: string, choice: ServerChoice): ServerResult {
  const server = serverFor(host, choice.enterpriseUri);
  if ('refusal' in server) return server;
  if (!choice.testApiUrl) return server;
  const testApi = loopbackUrl(choice.testApiUrl);
  if (!testApi)
    return {
      refusal: `The test API address ${choice.testApiUrl} is not on this machine; it is ignored only when unset.`,
    };
  return { server: { ...server.server, apiBaseUrl: testApi } };
}

function serverFor(host: string, enterpriseUri: string | undefined): ServerResult {
  if (host === 'github.com') {
    return {
      server: { authProviderId: 'github', webBaseUrl: 'https://github.com', apiBaseUrl: 'https://api.github.com' },
    };
  }
  const enterprise = enterpriseHost(enterpriseUri);
  if (enterprise && enterprise === host) {
    return {
      server: {
        authProviderId: 'github-enterprise',
        webBaseUrl: `https://${host}`,
        apiBaseUrl: `https://${host}/api/v3`,
      },
    };
  }
  return {
    refusal:
      `The branch's remote is on ${host}, which is neither github.com nor your GitHub Enterprise server` +
      (enterprise ? ` (${enterprise})` : '') +
      `. To publish to an Enterprise server, set "github-enterprise.uri" to https://${host} and sign in to it.`,
  };
}

function enterpriseHost(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function loopbackUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return LOOPBACK.has(url.hostname) ? url.href.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}
