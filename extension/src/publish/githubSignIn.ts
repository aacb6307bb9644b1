// The user's GitHub sign-in, from VS Code's own accounts: github.com's, or the Enterprise server's
// that `github-enterprise.uri` names. Redline keeps no token; VS Code asks the user when needed.

import * as vscode from 'vscode';
import type { GitHubServer } from './githubServer';
import { PublishError } from './publishErrors';

export interface SignIn {
  readonly token: string;
  /** The account's login: Redline's earlier comments are the ones this account wrote. */
  readonly login: string;
}

/** Review comments need the `repo` scope (on a private repository; GitHub grants it for public ones too). */
const SCOPES = ['repo'];

export async function signInToGitHub(server: GitHubServer): Promise<SignIn> {
  const where =
    server.authProviderId === 'github' ? 'GitHub' : `GitHub Enterprise (${new URL(server.webBaseUrl).host})`;
  let session: vscode.AuthenticationSession | undefined;
  try {
    session = await vscode.authentication.getSession(server.authProviderId, SCOPES, { createIfNone: true });
  } catch (error) {
    throw new PublishError(
      `Not signed in to ${where} (${(error as Error)?.message ?? error}): sign in when VS Code asks, then publish again. Nothing was sent.`,
      'not-signed-in',
    );
  }
  if (!session)
    throw new PublishError(
      `Not signed in to ${where}: sign in when VS Code asks, then publish again. Nothing was sent.`,
      'not-signed-in',
    );
  return { token: session.accessToken, login: session.account.label };
}
