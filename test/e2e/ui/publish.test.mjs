// Publish Review to Pull Request, as the user does it: a review in a window whose folder is a git
// checkout of a pull request's branch on github.com, the command from the palette, VS Code's own
// sign-in prompt (answered by a test sign-in registered as 'github'), and the notification with the
// review's URL. GitHub is the suite's stand-in (test/support/github/), which the extension reaches
// through REDLINE_TEST_GITHUB_API_URL and which checks every request against GitHub's description.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { makeTempDir, removeTempDir } from '../harness/processes.mjs';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(join(REPO_ROOT, 'package.json'));

/** The stand-in for GitHub and the fixture repository, bundled from their TypeScript for this process. */
async function loadGitHubKit(dir) {
  const outfile = join(dir, 'github-kit.cjs');
  // GitHub's description is read from node_modules by path (specFile below), not bundled.
  await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'test/support/github/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    external: ['@octokit/openapi'],
  });
  await esbuild.stop();
  return createRequire(outfile)(outfile);
}

describe('Publish Review to Pull Request', () => {
  /** @type {RedlineSession} */
  let s;
  /** @type {any} */
  let github;
  /** @type {any} */
  let repo;
  /** @type {string} */
  let tempDir;

  before(async function () {
    tempDir = makeTempDir('redline-e2e-publish-');
    const kit = await loadGitHubKit(tempDir);
    github = new kit.FakeGitHub('octo', 'app', {
      token: 'gho_fake_token',
      login: 'octocat',
      specFile: require.resolve('@octokit/openapi/generated/api.github.com.json'),
    });
    await github.start();
    repo = kit.makeFixtureRepository('git@github.com:octo/app.git', join(tempDir, 'app'));
    github.pulls.push({ number: 12, state: 'open', headRef: 'feature', headSha: repo.headSha, files: repo.files });

    // Redline as the suite installed it, beside the test sign-in, which takes the place of VS Code's
    // own GitHub sign-in (a built-in extension gives way to an installed one of the same id and a higher version).
    const main = session();
    const extensionsDir = join(tempDir, 'extensions');
    mkdirSync(extensionsDir);
    const installed = dirname(dirname(/** @type {string} */ (main.serverPath)));
    symlinkSync(installed, join(extensionsDir, basename(installed)));
    symlinkSync(
      join(REPO_ROOT, 'test/e2e/fixtures/github-auth-extension'),
      join(extensionsDir, 'vscode.github-authentication-99.0.0'),
    );
    s = await RedlineSession.open({
      extensionsDir,
      serverPath: /** @type {string} */ (main.serverPath),
      workspaceTemplate: repo.root,
      env: { REDLINE_TEST_GITHUB_API_URL: github.url },
    });
    const content = [
      '# Review of the feature branch',
      '',
      '- **bug**: the changed constant is never read at src/app.ts:10',
      '- nit: the three new lines repeat each other, src/app.ts:10-12',
      '- **risk**: the old code nearby has the same bug at src/app.ts:22',
      '- suggestion: the untouched file could use the helper, src/untouched.ts:3',
      '',
    ].join('\n');
    const { findings } = await s.call('present-review', { content, title: 'Feature review' });
    assert.equal(findings.length, 4);
    await s.waitForReviewText('the untouched file could use the helper');
  });

  after(async function () {
    await s?.close();
    await github?.stop();
    if (tempDir) removeTempDir(tempDir);
  });

  /** VS Code's prompt "The extension 'Redline' wants to sign in using GitHub (test sign-in)", answered. */
  async function answerSignIn(button) {
    const dialog = s.page.locator('.monaco-dialog-box', { hasText: 'wants to sign in' });
    await dialog.waitFor({ state: 'visible' });
    await s.screenshot(`publish-sign-in-${button}`);
    await dialog.getByRole('button', { name: button, exact: true }).click();
  }

  /** @param {string | RegExp} text */
  async function toast(text) {
    const found = s.page.locator('.notification-toast', { hasText: text });
    await found.first().waitFor({ state: 'visible' });
    return (await found.first().innerText()).replace(/\s+/g, ' ');
  }

  it('refused sign-in: an error that says so, and nothing sent to GitHub', async () => {
    await runCommand(s.page, 'Redline: Publish Review to Pull Request…');
    await answerSignIn('Cancel');
    const text = await toast('Not signed in to GitHub');
    assert.match(text, /sign in when VS Code asks, then publish again\. Nothing was sent\./);
    assert.deepEqual(github.requests, []);
    // The toast goes, so that the next test reads its own; its close button shows only on hover.
    await runCommand(s.page, 'Notifications: Clear All Notifications');
    await s.page.locator('.notification-toast', { hasText: 'Not signed in' }).waitFor({ state: 'hidden' });
  });

  it('publishes one review: comments on the diff, the rest in its body, and the URL shown', async () => {
    await runCommand(s.page, 'Redline: Publish Review to Pull Request…');
    await answerSignIn('Allow');
    const text = await toast('pull request #12');
    await s.screenshot('publish-done');
    const review = github.reviews[0];
    assert.ok(review, 'a review reached GitHub');
    assert.match(text, /pull request #12: added 2 comments and 2 findings in the review's body\./);
    assert.ok(text.includes(`https://github.com/octo/app/pull/12#pullrequestreview-${review.id}`), text);
    assert.match(text, /Open on GitHub/);
    assert.deepEqual(
      github.comments.map((/** @type {any} */ c) => [c.path, c.startLine, c.line, c.side]),
      [
        ['src/app.ts', undefined, 10, 'RIGHT'],
        ['src/app.ts', 10, 12, 'RIGHT'],
      ],
    );
    assert.deepEqual(github.outsideDiff, []);
    assert.match(review.body, /revision 1: 4 findings \(1 bug, 1 risk, 1 suggestion, 1 nit\)/);
    assert.ok(review.body.includes(`https://github.com/octo/app/blob/${repo.headSha}/src/app.ts#L22`), review.body);
    assert.ok(
      review.body.includes(`https://github.com/octo/app/blob/${repo.headSha}/src/untouched.ts#L3`),
      review.body,
    );
    assert.deepEqual(github.violations, []);
  });

  it('publishing again adds nothing twice', async () => {
    await runCommand(s.page, 'Redline: Publish Review to Pull Request…');
    const text = await toast('left 4 findings already there unchanged');
    assert.match(
      text,
      /pull request #12: left 4 findings already there unchanged\. https:\/\/github\.com\/octo\/app\/pull\/12/,
    );
    await waitFor(
      () => github.requests.filter((/** @type {any} */ r) => r.operationId === 'pulls/list-reviews').length === 2,
      'the second publish to read the reviews',
    );
    assert.equal(github.reviews.length, 1);
    assert.equal(github.comments.length, 2);
    assert.deepEqual(github.violations, []);
  });
});
