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

export function serverChoice(): ServerChoice {
  const enterpriseUri = vscode.workspace.getConfiguration('github-enterprise').get<unknown>('uri');
  const testApiUrl = process.env[TEST_API_ENV];
  return {
    ...(typeof enterpriseUri === 'string' && enterpriseUri ? { enterpriseUri } : {}),
    ...(testApiUrl ? { testApiUrl } : {}),
  };
}
