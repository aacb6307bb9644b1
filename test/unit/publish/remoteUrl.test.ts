import { githubServerFor } from '../../../extension/src/publish/githubServer';
import { parseRemoteUrl } from '../../../extension/src/publish/remoteUrl';

describe('parseRemoteUrl', () => {
  const repo = (host: string, owner = 'octo', name = 'app') => ({ host, owner, repo: name });
  test.each([
    ['https://github.com/octo/app.git', repo('github.com')],
    ['https://github.com/octo/app', repo('github.com')],
    ['https://github.com/octo/app/', repo('github.com')],
    ['https://user:secret@github.com/octo/app.git', repo('github.com')],
    ['http://GitHub.com/octo/app.git', repo('github.com')],
    ['https://www.github.com/octo/app.git', repo('github.com')],
    ['git@github.com:octo/app.git', repo('github.com')],
    ['git@github.com:octo/app', repo('github.com')],
    ['github.com:octo/app.git', repo('github.com')],
    ['ssh://git@github.com/octo/app.git', repo('github.com')],
    ['ssh://git@ssh.github.com:443/octo/app.git', repo('github.com')],
    ['git://github.com/octo/app.git', repo('github.com')],
    ['git+ssh://git@github.com/octo/app.git', repo('github.com')],
    ['https://ghe.example.com/team/tool.git', repo('ghe.example.com', 'team', 'tool')],
    ['https://ghe.example.com:8443/team/tool.git', repo('ghe.example.com:8443', 'team', 'tool')],
    ['git@ghe.example.com:team/tool.git', repo('ghe.example.com', 'team', 'tool')],
    ['ssh://git@ghe.example.com:2222/team/tool.git', repo('ghe.example.com', 'team', 'tool')],
    ['https://github.com/octo/my.repo-name_2.git', repo('github.com', 'octo', 'my.repo-name_2')],
  ])('%s', (url, expected) => {
    expect(parseRemoteUrl(url)).toEqual(expected);
  });

  test.each([
    [''],
    ['/srv/git/app.git'],
    ['../app'],
    ['file:///srv/git/octo/app.git'],
    ['https://github.com/octo'],
    ['https://github.com/octo/app/tree/main'],
    ['https://github.com/octo/../app'],
    ['git@github.com:/octo/app.git'],
    ['https://github.com/oc to/app'],
    ['ext::sh -c touch% /tmp/pwned'],
    ['C:\\repos\\app'],
  ])('refuses %j', (url) => {
    expect(parseRemoteUrl(url)).toBeUndefined();
  });
});

describe('githubServerFor', () => {
  test('github.com uses its own sign-in and api.github.com', () => {
    expect(githubServerFor('github.com', {})).toEqual({
      server: { authProviderId: 'github', webBaseUrl: 'https://github.com', apiBaseUrl: 'https://api.github.com' },
    });
  });

  test('an Enterprise host is used only when github-enterprise.uri names it', () => {
    expect(githubServerFor('ghe.example.com', { enterpriseUri: 'https://GHE.example.com/' })).toEqual({
      server: {
        authProviderId: 'github-enterprise',
        webBaseUrl: 'https://ghe.example.com',
        apiBaseUrl: 'https://ghe.example.com/api/v3',
      },
    });
    const other = githubServerFor('evil.example.net', { enterpriseUri: 'https://ghe.example.com' });
    expect(other).toEqual({
      refusal: expect.stringContaining(
        'evil.example.net, which is neither github.com nor your GitHub Enterprise server (ghe.example.com)',
      ),
    });
    expect(githubServerFor('ghe.example.com', {})).toEqual({
      refusal: expect.stringContaining('set "github-enterprise.uri" to https://ghe.example.com'),
    });
    expect(githubServerFor('ghe.example.com', { enterpriseUri: 'http://ghe.example.com' })).toHaveProperty('refusal');
  });

  test("the tests' API address is taken only on this machine", () => {
    expect(githubServerFor('github.com', { testApiUrl: 'http://127.0.0.1:4567/' })).toEqual({
      server: { authProviderId: 'github', webBaseUrl: 'https://github.com', apiBaseUrl: 'http://127.0.0.1:4567' },
    });
    expect(githubServerFor('github.com', { testApiUrl: 'http://localhost:80/api' })).toHaveProperty(
      'server.apiBaseUrl',
      'http://localhost/api',
    );
    for (const elsewhere of [
      'https://evil.example.net',
      'http://127.0.0.1.evil.example.net:80',
      'http://10.0.0.1',
      'file:///tmp/x',
      'not a url',
    ]) {
      expect(githubServerFor('github.com', { testApiUrl: elsewhere })).toHaveProperty('refusal');
    }
  });
});
