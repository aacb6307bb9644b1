// Where publishing may send the user's token, from the user's settings and the extension host's
// environment.

import * as vscode from 'vscode';
import type { ServerChoice } from './githubServer';

/**
 * The end-to-end tests' stand-in for GitHub's API. Read from the extension host's environment,
 * never from settings: a repository can ship workspace settings, but not the environment VS Code
 * was started with. githubServer.ts takes it only when it names this machine (127.0.0.1, ::1,
 * localhost), so even a wrong value sends the token nowhere off the machine.
 */
export const TEST_API_ENV = 'REDLINE_TEST_GITHUB_API_URL';

/**
 * `github-enterprise.uri` as the user set it, in their own settings only: a repository's workspace
 * settings (.vscode/settings.json, which a clone brings) could name a host to send the token to.
 */
export function userEnterpriseUri(inspected: { readonly globalValue?: unknown } | undefined): string | undefined {
  const value = inspected?.globalValue;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function serverChoice(): ServerChoice {
  const enterpriseUri = userEnterpriseUri(vscode.workspace.getConfiguration('github-enterprise').inspect('uri'));
  const testApiUrl = process.env[TEST_API_ENV];
  return {
    ...(enterpriseUri !== undefined ? { enterpriseUri } : {}),
    ...(testApiUrl ? { testApiUrl } : {}),
  };
}
