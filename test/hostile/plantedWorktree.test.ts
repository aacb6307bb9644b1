// Another local user plants a repository above the workspace: the workspace folder is D/ws, D is
// a shared, sticky, world-writable folder (as /tmp is), and the other user writes
// D/.git/worktrees/x/gitdir naming "/.git". git's safe.directory would not believe D/.git, and
// neither may Redline: "/" must not become a worktree of the window, so the reference report says
// nothing of the disk, open-location asks before opening a file outside, and MCP servers started
// anywhere are not routed to the window by it. The attacker's files are written by a process
// running as another uid, which needs root (as in CI); without it, the test says so, checks the rule
// with an injected ownership lookup, and drives the window with a planted repository every user may
// write to.

jest.mock('vscode', () => jest.requireActual<typeof import('../unit/vscodeStub')>('../unit/vscodeStub').vscode, {
  virtual: true,
});

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OUTSIDE_ROOTS } from '../../extension/src/render/referenceResolver';
import { NoWindowError, WindowLocator } from '../../mcp-server/src/windowLocator';
import { DISCOVERY_VERSION, discoveryFileName, writeDiscoveryFile } from '../../shared/discovery';
import { registeredWorktrees, worktreeHolding } from '../../shared/gitWorktrees';
import { Logger } from '../../shared/logger';
import { systemTrust, type TrustContext } from '../../shared/repositoryTrust';
import { ErrorCode } from '../../shared/protocol';
import { seen } from '../unit/vscodeStub';
import { OpenerWindow } from './openerWindow';

const asRoot = process.getuid?.() === 0;
/** The other user: nobody, unless this test runs as nobody. */
const ATTACKER = process.getuid?.() === 65534 ? 65533 : 65534;

let shared: string;
let ws: string;
beforeAll(() => {
  shared = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-shared-')));
  fs.chmodSync(shared, 0o1777);
  ws = path.join(shared, 'ws');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'a\n');
  const plant = `mkdir -p '${shared}/.git/worktrees/x' && printf '/.git\\n' > '${shared}/.git/worktrees/x/gitdir'`;
  if (asRoot) {
    execFileSync('sh', ['-c', plant], { uid: ATTACKER, gid: ATTACKER, stdio: 'pipe' });
  } else {
    execFileSync('sh', ['-c', plant], { stdio: 'pipe' });
    // What another user could have written into: a repository every user may write to.
    for (const dir of ['.git', '.git/worktrees', '.git/worktrees/x']) fs.chmodSync(path.join(shared, dir), 0o777);
    console.log(
      `Cannot plant the repository as another user: this process is uid ${process.getuid?.()}, and only root can start a process ` +
        `as another uid. The rule is checked with an ownership lookup that says uid ${ATTACKER} owns it, and the window and ` +
        'routing cases run against a planted repository that every user may write to.',
    );
  }
});
afterAll(() => fs.rmSync(shared, { recursive: true, force: true }));

/** Why the window does not believe the planted repository. */
const plantedWhy = () =>
  `${shared}/.git: ${asRoot ? `it belongs to uid ${ATTACKER}, not to you` : 'every user may write to it'}`;

/** Ownership as the disk says, except that, when not root, the planted repository is said to be the attacker's. */
function trust(): TrustContext {
  const system = systemTrust();
  if (asRoot) return system;
  const planted = path.join(shared, '.git');
  const theirs = <T extends { uid: number }>(file: string, stats: T): T =>
    file === planted || file.startsWith(`${planted}/`)
      ? Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { uid: ATTACKER })
      : stats;
  return {
    owner: system.owner,
    lstat: (file) => theirs(file, system.lstat(file)),
    stat: (file) => theirs(file, system.stat(file)),
  };
}

it("does not believe another user's repository above the workspace: / is no worktree of it", () => {
  const distrust: string[] = [];
  const options = { trust: trust(), onDistrust: (why: string) => distrust.push(why) };
  expect(registeredWorktrees(ws, options)).toEqual([]);
  for (const place of ['/', '/etc', os.homedir()]) expect(worktreeHolding(place, [ws], options)).toBeUndefined();
  expect(distrust[0]).toBe(
    `the repository above ${ws} is not trusted: ${shared}/.git: it belongs to uid ${ATTACKER}, not to you`,
  );
});

describe('a window whose folder is D/ws, with the planted record', () => {
  let window: OpenerWindow;
  const told: string[] = [];
  beforeAll(async () => {
    const rendererLog = new Logger({ write: ({ level, message }) => told.push(`${level}: ${message}`) }, 'renderer');
    window = await OpenerWindow.start({ workspace: ws, rendererLog });
  });
  afterAll(async () => {
    await window?.stop();
  });
  beforeEach(() => seen.reset());

  it.each(['/', os.homedir()])('with cwd %s, the report says nothing of files outside the workspace', async (cwd) => {
    const reply = await window.request('present-review', {
      content: '- /etc/passwd:9999\n- /etc/nonexistent:1\n- `src/a.ts:1`\n',
      cwd,
    });
    expect(reply.result!.references).toMatchObject({ total: 3, resolved: 1 });
    expect(reply.result!.references.broken.map((broken: { reason: string }) => broken.reason)).toEqual([
      `/etc/passwd is ${OUTSIDE_ROOTS}`,
      `/etc/nonexistent is ${OUTSIDE_ROOTS}`,
    ]);
    expect(window.renderer.roots(cwd)).toEqual([ws]);
    expect(window.renderer.worktreeOf(cwd)).toBeUndefined();
    // The window's log hears why, once however often it is asked.
    expect(told).toEqual([
      `warn: the repository above ${ws} is not trusted: ${plantedWhy()}. A repository counts only when you own it and no one else may write to it, as git's safe.directory decides.`,
    ]);
  });

  it('open-location of a file outside the workspace asks first, from cwd "/"', async () => {
    const reply = await window.request('open-location', { reference: '/etc/hostname:1', cwd: '/' });
    expect(seen.questions).toEqual([`Open /etc/hostname? It is outside this window's workspace folders.`]);
    expect(reply.error).toMatchObject({ code: ErrorCode.Refused });
    expect(seen.opened).toEqual([]);
  });

  it('routes no MCP server to the window by the planted record, says why, and still routes one started in the folder', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-disc-'));
    try {
      writeDiscoveryFile(path.join(directory, discoveryFileName(process.pid, '0000abcd')), {
        version: DISCOVERY_VERSION,
        pid: process.pid,
        folders: [ws],
        // Only its place is read: a window's socket is beside its discovery file.
        socketPath: path.join(directory, 'w.sock'),
        token: window.host.token,
        editor: 'Code',
        lastFocused: 1,
        started: 1,
        terminals: [],
      });
      const locator = (cwd: string) =>
        new WindowLocator({ cwd, directories: () => [directory], platform: 'linux', ancestors: () => [] });
      for (const cwd of ['/', '/etc', os.homedir()]) {
        let thrown: unknown;
        try {
          locator(cwd).candidates();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(NoWindowError);
        expect((thrown as Error).message).toContain(plantedWhy());
      }
      expect(locator(path.join(ws, 'src')).candidates()).toEqual([
        { socketPath: path.join(directory, 'w.sock'), token: window.host.token, via: `the Code window of ${ws}` },
      ]);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
