import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DISCOVERY_VERSION, discoveryFileName, writeDiscoveryFile } from '../../shared/discovery';
import { NoWindowError, WindowLocator, workspaceChoice, type LocatorOptions } from '../../mcp-server/src/windowLocator';

const TOKEN_A = 'a'.repeat(32);
const TOKEN_B = 'b'.repeat(32);

describe('where the MCP server connects', () => {
  let dir: string;
  let keys = 0;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-loc-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function publish(
    folders: string[],
    socketPath: string,
    token: string,
    lastFocused = 1,
    editor = 'Visual Studio Code',
    more: { started?: number; terminals?: number[] } = {},
  ): void {
    const key = (++keys).toString(16).padStart(8, '0');
    writeDiscoveryFile(path.join(dir, discoveryFileName(process.pid, key)), {
      version: DISCOVERY_VERSION,
      pid: process.pid,
      folders,
      socketPath,
      token,
      editor,
      lastFocused,
      started: more.started ?? 1,
      terminals: more.terminals ?? [],
    });
  }

  const locator = (options: Partial<LocatorOptions>) =>
    new WindowLocator({
      cwd: '/nowhere',
      directories: () => [dir],
      platform: 'linux',
      ancestors: () => [4242, 77],
      ...options,
    });

  it("tries a terminal's REDLINE_IPC_PATH first, with the token its window publishes now (after a rotation)", () => {
    publish(['/work/app'], `${dir}/a.sock`, TOKEN_B);
    publish(['/work/app'], `${dir}/other.sock`, TOKEN_A);
    const endpoints = locator({ envPath: `${dir}/a.sock`, envToken: TOKEN_A, cwd: '/work/app' }).candidates();
    expect(endpoints[0]).toEqual({
      socketPath: `${dir}/a.sock`,
      token: TOKEN_B,
      via: 'the window named by REDLINE_IPC_PATH',
    });
    expect(endpoints.map((e) => e.socketPath)).toEqual([`${dir}/a.sock`, `${dir}/other.sock`]);
  });

  it("keeps the terminal's token for a socket no discovery file names", () => {
    expect(locator({ envPath: '/elsewhere.sock', envToken: TOKEN_A }).candidates()).toEqual([
      { socketPath: '/elsewhere.sock', token: TOKEN_A, via: 'the window named by REDLINE_IPC_PATH' },
    ]);
  });

  it('once that socket is dead, goes by the working directory: deepest folder, then latest focus', () => {
    publish(['/work'], `${dir}/outer.sock`, TOKEN_A, 300);
    publish(['/work/app'], `${dir}/old.sock`, TOKEN_A, 100);
    publish(['/work/app'], `${dir}/new.sock`, TOKEN_B, 200, 'Cursor');
    const endpoints = locator({ envPath: `${dir}/gone.sock`, envToken: TOKEN_A, cwd: '/work/app/src' }).candidates(
      new Set([`${dir}/gone.sock`]),
    );
    expect(endpoints.map((e) => e.socketPath)).toEqual([`${dir}/new.sock`, `${dir}/old.sock`, `${dir}/outer.sock`]);
    expect(endpoints[0]).toEqual({
      socketPath: `${dir}/new.sock`,
      token: TOKEN_B,
      via: 'the Cursor window of /work/app',
    });
  });

  it('takes the folder the user named over the terminal, REDLINE_IPC_PATH and the working directory; relative to it', () => {
    publish(['/work/app'], `${dir}/app.sock`, TOKEN_A, 1, 'Code', { terminals: [4242] });
    publish(['/work/lib'], `${dir}/lib.sock`, TOKEN_A);
    const named = (folder: string) =>
      locator({
        cwd: '/work/app',
        envPath: `${dir}/app.sock`,
        envToken: TOKEN_A,
        workspace: { folder, from: '--workspace' },
      });
    expect(
      named('/work/lib')
        .candidates()
        .map((e) => e.socketPath),
    ).toEqual([`${dir}/lib.sock`]);
    expect(
      named('../lib')
        .candidates()
        .map((e) => e.socketPath),
    ).toEqual([`${dir}/lib.sock`]);
    expect(() => named('/work/none').candidates()).toThrow(/contains \/work\/none \(--workspace\)/);
  });

  it("puts the window of the server's own terminal first, the newest host of it, even over a live REDLINE_IPC_PATH", () => {
    // A host that lingers after its window reloaded, and the reloaded window's host: both name the terminal.
    publish(['/work/app'], `${dir}/ghost.sock`, TOKEN_A, 500, 'Code', { started: 100, terminals: [4242, 9] });
    publish(['/work/app'], `${dir}/reloaded.sock`, TOKEN_B, 400, 'Code', { started: 200, terminals: [4242] });
    publish(['/work/other'], `${dir}/other.sock`, TOKEN_A, 900, 'Code', { started: 300, terminals: [5] });
    const endpoints = locator({ envPath: `${dir}/ghost.sock`, envToken: TOKEN_A, cwd: '/elsewhere' }).candidates();
    expect(endpoints.map((e) => e.socketPath)).toEqual([`${dir}/reloaded.sock`, `${dir}/ghost.sock`]);
    expect(endpoints[0].via).toBe('the Code window of this terminal');
  });

  it('with no window for the place, names every open folder and how to choose one', () => {
    publish(['/work/app'], `${dir}/app.sock`, TOKEN_A, 1, 'Visual Studio Code');
    publish(['/work/lib', '/work/docs'], `${dir}/lib.sock`, TOKEN_A, 1, 'code-server');
    const error = catchError(() => locator({ cwd: '/home/u' }).candidates());
    expect(error).toBeInstanceOf(NoWindowError);
    expect(error.message).toContain(
      'No VS Code window has a workspace folder that contains /home/u (the working directory).',
    );
    expect(error.message).toContain(
      '  /work/app (Visual Studio Code)\n  /work/lib (code-server)\n  /work/docs (code-server)',
    );
    expect(error.message).toContain('REDLINE_WORKSPACE=<folder>');
    expect(error.message).toContain('--workspace <folder>');
  });

  it('with no window at all, says to open the project; a dead REDLINE_IPC_PATH is named', () => {
    const error = catchError(() =>
      locator({ envPath: '/run/gone.sock', envToken: TOKEN_A }).candidates(new Set(['/run/gone.sock'])),
    );
    expect(error).toBeInstanceOf(NoWindowError);
    expect(error.message).toMatch(
      /^No VS Code window listens at \/run\/gone\.sock any more .*no VS Code window with Redline is open/,
    );
  });

  it('a socket without any token is a configuration error, not a retry', () => {
    const error = catchError(() => locator({ envPath: `${dir}/a.sock` }).candidates());
    expect(error).not.toBeInstanceOf(NoWindowError);
    expect(error.message).toContain('REDLINE_IPC_TOKEN is not set');
  });

  it('reads --workspace and REDLINE_WORKSPACE, the command line first', () => {
    expect(workspaceChoice(['--workspace', '/a'], { REDLINE_WORKSPACE: '/b' })).toEqual({
      folder: '/a',
      from: '--workspace',
    });
    expect(workspaceChoice(['--workspace=/a'], {})).toEqual({ folder: '/a', from: '--workspace' });
    expect(workspaceChoice([], { REDLINE_WORKSPACE: '/b' })).toEqual({ folder: '/b', from: 'REDLINE_WORKSPACE' });
    expect(workspaceChoice([], {})).toBeUndefined();
  });

  describe("when the working directory is in no window's folder", () => {
    let repo: string;
    let worktree: string;
    beforeEach(() => {
      // A repository a window has open, and a worktree of it beside it (git worktree add ../wt).
      repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-repo-')));
      worktree = `${repo}-wt`;
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: repo,
          stdio: 'ignore',
          env: {
            ...process.env,
            GIT_AUTHOR_NAME: 'a',
            GIT_AUTHOR_EMAIL: 'a@b',
            GIT_COMMITTER_NAME: 'a',
            GIT_COMMITTER_EMAIL: 'a@b',
          },
        });
      git('init', '-q');
      git('commit', '-q', '--allow-empty', '-m', 'init');
      git('worktree', 'add', '-q', worktree);
      fs.mkdirSync(path.join(worktree, 'src'));
    });
    afterEach(() => {
      fs.rmSync(repo, { recursive: true, force: true });
      fs.rmSync(worktree, { recursive: true, force: true });
    });

    it('routes a git worktree of an open repository to that window', () => {
      publish(['/work/other'], `${dir}/other.sock`, TOKEN_A);
      publish([repo], `${dir}/repo.sock`, TOKEN_B);
      expect(locator({ cwd: path.join(worktree, 'src') }).candidates()).toEqual([
        {
          socketPath: `${dir}/repo.sock`,
          token: TOKEN_B,
          via: `the Visual Studio Code window of ${repo}, whose repository has the worktree ${worktree}`,
        },
      ]);
    });

    it("never takes a worktree's own word for it: a .git file pointing into the repository is not a worktree the repository lists", () => {
      publish([repo], `${dir}/repo.sock`, TOKEN_B);
      const impostor = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-impostor-'));
      try {
        fs.writeFileSync(path.join(impostor, '.git'), `gitdir: ${repo}/.git/worktrees/${path.basename(worktree)}\n`);
        expect(() => locator({ cwd: impostor }).candidates()).toThrow(NoWindowError);
      } finally {
        fs.rmSync(impostor, { recursive: true, force: true });
      }
    });

    it("goes by the client's MCP roots next, as a working directory would", () => {
      publish(['/work/app'], `${dir}/app.sock`, TOKEN_A);
      expect(locator({ cwd: '/home/me', roots: () => ['/work/app/packages/ui'] }).candidates()).toEqual([
        {
          socketPath: `${dir}/app.sock`,
          token: TOKEN_A,
          via: "the Visual Studio Code window of /work/app, which holds the client's root /work/app/packages/ui",
        },
      ]);
    });

    it('says which rules it tried when none found a window', () => {
      publish(['/work/app'], `${dir}/app.sock`, TOKEN_A);
      expect(() => locator({ cwd: '/home/me', roots: () => ['/elsewhere'] }).candidates()).toThrow(
        /Tried: the window of the terminal this server runs in \(none\), a window folder that contains it, a window whose git repository lists it as a worktree, and the client's MCP roots \(\/elsewhere\)\./,
      );
    });
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
