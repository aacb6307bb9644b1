// Where publishing may send the user's token is the user's to say: `github-enterprise.uri` counts
// only from their own settings, never from a workspace's, which any repository can ship.

const settings = { user: undefined as string | undefined, workspace: undefined as string | undefined };

jest.mock(
  'vscode',
  () => ({
    workspace: {
      getConfiguration: () => ({
        // What VS Code's get() answers: the workspace's value over the user's.
        get: () => settings.workspace ?? settings.user,
        inspect: () => ({ globalValue: settings.user, workspaceValue: settings.workspace }),
      }),
    },
  }),
  { virtual: true },
);

import { serverChoice } from '../../../extension/src/publish/publishSettings';
import { githubServerFor } from '../../../extension/src/publish/githubServer';

afterEach(() => {
  settings.user = undefined;
  settings.workspace = undefined;
});

test("a workspace's github-enterprise.uri sends the token nowhere", () => {
  settings.workspace = 'https://git.evil.example';
  expect(serverChoice().enterpriseUri).toBeUndefined();
  expect(githubServerFor('git.evil.example', serverChoice())).toEqual({
    refusal: expect.stringContaining('git.evil.example'),
  });
});

test("the user's own github-enterprise.uri is the Enterprise server, whatever the workspace says", () => {
  settings.user = 'https://github.acme.example';
  settings.workspace = 'https://git.evil.example';
  expect(serverChoice().enterpriseUri).toBe('https://github.acme.example');
  expect(githubServerFor('github.acme.example', serverChoice())).toMatchObject({
    server: { authProviderId: 'github-enterprise', apiBaseUrl: 'https://github.acme.example/api/v3' },
  });
});
