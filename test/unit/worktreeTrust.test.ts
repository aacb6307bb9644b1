// Which worktree records Redline believes: those git's safe.directory would believe (the user's,
// and written by no one else, an ACL's grant included; on Windows, under the profile or owned by
// the user), whose worktree's own `.git` points back at them on its first line, and that never
// name `/`, the home folder or a folder holding a workspace folder. Each case starts from a real
// `git worktree add` that is believed, and changes one thing.

import * as childProcess from 'child_process';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { registeredWorktrees, worktreeHolding } from '../../shared/gitWorktrees';
import { bundleForChild } from '../integration/childBundle';
import { privateGroupOf, type AccountSources } from '../../shared/accountGroups';
import {
  currentOwner,
  distrustOf,
  notOwned,
  ownedByUser,
  systemTrust,
  type OwnershipStats,
  type TrustContext,
} from '../../shared/repositoryTrust';

let base: string;
let repo: string;
let worktree: string;
let record: string;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-trust-')));
  repo = path.join(base, 'repo');
  worktree = path.join(base, 'wt');
  fs.mkdirSync(repo);
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
  record = path.join(repo, '.git', 'worktrees', 'wt');
  // The modes as a umask of 022 leaves them, whatever this machine's umask.
  for (const dir of [path.join(repo, '.git'), path.join(repo, '.git', 'worktrees'), record]) fs.chmodSync(dir, 0o755);
  for (const file of [path.join(record, 'gitdir'), path.join(worktree, '.git')]) fs.chmodSync(file, 0o644);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** The worktrees believed, and why the others were not. */
function believed(folder = repo, options: { trust?: TrustContext } = {}): { trees: string[]; why: string[] } {
  const why: string[] = [];
  return { trees: registeredWorktrees(folder, { ...options, onDistrust: (reason) => why.push(reason) }), why };
}

/** Points the record at `dir` and makes dir's `.git` point back, as `git worktree move` would. */
function moveRecordTo(dir: string): void {
  fs.writeFileSync(path.join(record, 'gitdir'), `${dir}/.git\n`);
  fs.writeFileSync(path.join(dir, '.git'), `gitdir: ${record}\n`);
}

it('believes a worktree made by git worktree add', () => {
  expect(believed()).toEqual({ trees: [worktree], why: [] });
  expect(worktreeHolding(path.join(worktree, 'src'), [repo])).toEqual({ folder: repo, worktree });
});

it('believes a record written with relative paths (worktree.useRelativePaths)', () => {
  fs.writeFileSync(path.join(record, 'gitdir'), `${path.relative(record, worktree)}/.git\n`);
  fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${path.relative(worktree, record)}\n`);
  expect(believed().trees).toEqual([worktree]);
});

it("does not believe a record whose worktree's .git points elsewhere", () => {
  fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${path.join(repo, '.git')}\n`);
  expect(believed()).toEqual({
    trees: [],
    why: [`the worktree record ${record} is not trusted: ${worktree}/.git does not point back at ${record}`],
  });
  fs.rmSync(path.join(worktree, '.git'));
  expect(believed().trees).toEqual([]);
});

it('.git is read as git reads it: its first line alone', () => {
  fs.writeFileSync(path.join(worktree, '.git'), `# moved\ngitdir: ${record}\n`);
  expect(believed()).toEqual({
    trees: [],
    why: [`the worktree record ${record} is not trusted: ${worktree}/.git does not point back at ${record}`],
  });
  fs.writeFileSync(path.join(worktree, '.git'), `gitdir: ${record}\r\n`);
  expect(believed()).toEqual({ trees: [worktree], why: [] });
});

it('does not believe a record that names a folder holding a workspace folder, or a workspace folder itself', () => {
  moveRecordTo(base);
  expect(believed()).toEqual({
    trees: [],
    why: [`the worktree record ${record} is not trusted: it names ${base}, which is or holds ${repo}`],
  });
  expect(worktreeHolding(path.join(base, 'elsewhere'), [repo])).toBeUndefined();
  fs.rmSync(path.join(base, '.git'));
  moveRecordTo(worktree);
  const other = path.join(worktree, 'pkg');
  expect(registeredWorktrees(repo, { folders: [other] })).toEqual([]);
  expect(worktreeHolding(path.join(worktree, 'src'), [repo, worktree])).toBeUndefined();
});

it('does not believe a record that names the home folder', () => {
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  moveRecordTo(home);
  // The home folder as this process learns it ($HOME): set for a child, since a test's process.env is not the process's.
  const bundle = path.join(base, 'gitWorktrees.js');
  bundleForChild(path.join(__dirname, '../../shared/gitWorktrees.ts'), bundle);
  const script = `const g = require(${JSON.stringify(bundle)}); const why = [];
    const trees = g.registeredWorktrees(${JSON.stringify(repo)}, { onDistrust: (w) => why.push(w) });
    process.stdout.write(JSON.stringify({ trees, why, held: g.worktreeHolding(${JSON.stringify(path.join(home, '.ssh'))}, [${JSON.stringify(repo)}]) ?? null }));`;
  const answer = JSON.parse(
    execFileSync(process.execPath, ['-e', script], { env: { ...process.env, HOME: home }, encoding: 'utf8' }),
  );
  expect(answer).toEqual({
    trees: [],
    why: [`the worktree record ${record} is not trusted: it names ${home}, which is or holds ${home}`],
    held: null,
  });
});

it('does not believe a record that names /', () => {
  fs.writeFileSync(path.join(record, 'gitdir'), '/.git\n');
  expect(believed()).toEqual({
    trees: [],
    why: [`the worktree record ${record} is not trusted: it names /, the root of the file system`],
  });
  expect(worktreeHolding('/etc', [repo])).toBeUndefined();
});

it('never follows a record, or a place asked about, to a network share or a device', () => {
  fs.writeFileSync(path.join(record, 'gitdir'), '//host/share/wt/.git\n');
  expect(believed()).toEqual({ trees: [], why: [] });
  expect(worktreeHolding('\\\\host\\share\\wt', [repo])).toBeUndefined();
});

describe.each([
  ['the .git folder', () => path.join(repo, '.git'), 0o755, 'repository' as const],
  ['the worktrees folder', () => path.join(repo, '.git', 'worktrees'), 0o755, 'records' as const],
  ['the record folder', () => record, 0o755, 'record' as const],
  ['the gitdir record', () => path.join(record, 'gitdir'), 0o644, 'record' as const],
  ["the worktree's .git file", () => path.join(worktree, '.git'), 0o644, 'record' as const],
])('when others may write %s', (_name, target, mode, level) => {
  it.each([
    ['its group', 0o020, 'its group may write to it'],
    ['every user', 0o002, 'every user may write to it'],
  ])('%s: not believed', (_who, bits, reason) => {
    fs.chmodSync(target(), mode | bits);
    // As a user whose group is shared: a private group's write bit is the user's own (tested below).
    const system = systemTrust();
    const { trees, why } = believed(repo, { trust: { ...system, owner: { ...system.owner, privateGid: undefined } } });
    expect(trees).toEqual([]);
    const whose = {
      repository: `the repository above ${repo} is`,
      records: `the worktree records in ${target()} are`,
      record: `the worktree record ${record} is`,
    }[level];
    expect(why).toEqual([`${whose} not trusted: ${target()}: ${reason}`]);
  });
});

describe("git's ownership rule", () => {
  const stats = (uid: number, mode = 0o755, link = false): OwnershipStats => ({
    uid,
    mode,
    isSymbolicLink: () => link,
    isDirectory: () => !link,
    isFile: () => false,
  });

  it('is the current user, or as root, root or the sudo user', () => {
    expect(ownedByUser(1000, { uid: 1000 })).toBe(true);
    expect(ownedByUser(0, { uid: 1000 })).toBe(false);
    expect(ownedByUser(0, { uid: 0 })).toBe(true);
    expect(ownedByUser(1000, { uid: 0 })).toBe(false);
    expect(ownedByUser(1000, { uid: 0, sudoUid: 1000 })).toBe(true);
    expect(ownedByUser(0, { uid: 0, sudoUid: 1000 })).toBe(true);
    expect(ownedByUser(1001, { uid: 0, sudoUid: 1000 })).toBe(false);
  });

  it('reads SUDO_UID only as root, and only a whole number', () => {
    const root = process.geteuid?.() === 0;
    expect(currentOwner({ SUDO_UID: '1000' }).sudoUid).toBe(root ? 1000 : undefined);
    expect(currentOwner({ SUDO_UID: '1000x' }).sudoUid).toBeUndefined();
    expect(currentOwner({ SUDO_UID: '' }).sudoUid).toBeUndefined();
  });

  it('judges a link by its owner alone, and anything else by its owner and who may write it', () => {
    expect(distrustOf(stats(1000, 0o777, true), { uid: 1000 })).toBeUndefined();
    expect(distrustOf(stats(1001, 0o777, true), { uid: 1000 })).toBe('it belongs to uid 1001, not to you');
    expect(distrustOf(stats(1000, 0o775), { uid: 1000 })).toBe('its group may write to it');
    expect(distrustOf(stats(1000, 0o1777), { uid: 1000 })).toBe('every user may write to it');
    expect(distrustOf(stats(1000, 0o755), { uid: 1000 })).toBeUndefined();
  });

  it("lets the user's private group write (umask 002), and no other group, nor an ACL's mask", () => {
    const inGroup = (gid: number): OwnershipStats => ({ ...stats(1000, 0o775), gid });
    const noAcl = { accessAcl: () => false };
    expect(distrustOf(inGroup(1000), { uid: 1000, privateGid: 1000 }, noAcl)).toBeUndefined();
    expect(distrustOf(inGroup(100), { uid: 1000, privateGid: 1000 }, noAcl)).toBe('its group may write to it');
    expect(distrustOf(inGroup(1000), { uid: 1000 }, noAcl)).toBe('its group may write to it');
    expect(distrustOf({ ...inGroup(1000), mode: 0o777 }, { uid: 1000, privateGid: 1000 }, noAcl)).toBe(
      'every user may write to it',
    );
    expect(distrustOf(inGroup(1000), { uid: 1000, privateGid: 1000 }, { accessAcl: () => true })).toBe(
      'its ACL may let other users write to it',
    );
    expect(distrustOf(inGroup(1000), { uid: 1000, privateGid: 1000 }, { accessAcl: () => undefined })).toBe(
      'its group may write to it, and whether an ACL lets other users write too could not be told',
    );
  });

  describe('a private group', () => {
    const alice = 'alice:x:1000:1000::/home/alice:/bin/bash';
    /** The local files, and what the name service adds (undefined: no getent on this system). */
    const sources = (
      files: { passwd: string; group: string },
      served?: { group: string[]; passwd: string[] },
    ): AccountSources => ({
      readFile: (file) => (file === '/etc/passwd' ? files.passwd : files.group),
      getent: (database) => served?.[database],
    });

    it('is one no other account has as its primary group or is listed in, by the local files', () => {
      expect(privateGroupOf(1000, 1000, sources({ passwd: alice, group: 'alice:x:1000:' }))).toBe(1000);
      expect(
        privateGroupOf(
          1001,
          1000,
          sources({ passwd: `${alice}\nbob:x:1001:1000::/home/bob:/bin/sh`, group: 'alice:x:1000:' }),
        ),
      ).toBeUndefined();
      expect(privateGroupOf(1000, 100, sources({ passwd: alice, group: 'users:x:100:alice,bob' }))).toBeUndefined();
      expect(privateGroupOf(1000, 1001, sources({ passwd: alice, group: 'alice:x:1001:alice' }))).toBe(1001);
      // Named after another: not the user's private group, whoever is in it.
      expect(privateGroupOf(1000, 1001, sources({ passwd: alice, group: 'devs:x:1001:' }))).toBeUndefined();
      const unreadable: AccountSources = {
        readFile: () => {
          throw new Error('EACCES');
        },
        getent: () => undefined,
      };
      expect(privateGroupOf(1002, 1002, unreadable)).toBeUndefined();
    });

    it('is not one the name service (LDAP, SSSD) gives another member or another account', () => {
      const files = { passwd: alice, group: 'alice:x:1000:' };
      expect(privateGroupOf(1000, 1000, sources(files, { group: ['alice:*:1000:'], passwd: [alice] }))).toBe(1000);
      expect(
        privateGroupOf(1000, 1000, sources(files, { group: ['alice:*:1000:alice,mallory'], passwd: [alice] })),
      ).toBeUndefined();
      expect(
        privateGroupOf(
          1000,
          1000,
          sources(files, { group: ['alice:*:1000:'], passwd: [alice, 'mallory:*:5001:1000::/home/mallory:/bin/sh'] }),
        ),
      ).toBeUndefined();
      // The name service knows no such group: the files are not the whole story, so it is not private.
      expect(privateGroupOf(1000, 1000, sources(files, { group: [], passwd: [alice] }))).toBeUndefined();
    });
  });

  describe('on Windows, where a file has no uid', () => {
    const profile = 'C:\\Users\\alice';
    const owner = { uid: undefined, windows: { user: 'HOST\\alice', profile } };
    const any = stats(0);
    const ownedBy = (name: string | undefined) => ({ windowsOwner: () => name });

    it("believes a file under the user's profile without asking who owns it", () => {
      const asked = jest.fn(() => 'BUILTIN\\Users');
      expect(distrustOf(any, owner, { file: `${profile}\\src\\repo\\.git`, windowsOwner: asked })).toBeUndefined();
      expect(distrustOf(any, owner, { file: 'c:\\users\\ALICE\\repo', windowsOwner: asked })).toBeUndefined();
      expect(asked).not.toHaveBeenCalled();
    });

    it('believes one outside it only when its owner is the user, and says why not', () => {
      const file = { file: 'C:\\src\\repo\\.git' };
      expect(distrustOf(any, owner, { ...file, ...ownedBy('host\\ALICE') })).toBeUndefined();
      expect(distrustOf(any, owner, { ...file, ...ownedBy('HOST\\mallory') })).toBe(
        `it is outside your profile (${profile}) and belongs to HOST\\mallory, not to you (HOST\\alice)`,
      );
      expect(distrustOf(any, owner, { ...file, ...ownedBy(undefined) })).toBe(
        `it is outside your profile (${profile}), and Windows did not say who owns it`,
      );
    });

    it('applies to the worktree folder and to every record', () => {
      const context: TrustContext = {
        owner: { uid: undefined, windows: { user: 'HOST\\alice', profile: path.join(base, 'profile') } },
        lstat: (file) => fs.lstatSync(file),
        stat: (file) => fs.statSync(file),
        windowsOwner: (file) => (file === worktree ? 'BUILTIN\\Users' : 'HOST\\alice'),
      };
      expect(notOwned(worktree, context)).toBe(
        `${worktree}: it is outside your profile (${path.join(base, 'profile')}) and belongs to BUILTIN\\Users, not to you (HOST\\alice)`,
      );
      expect(believed(repo, { trust: context }).trees).toEqual([]);
      expect(believed(repo, { trust: { ...context, windowsOwner: () => 'HOST\\alice' } }).trees).toEqual([worktree]);
      expect(
        believed(repo, {
          trust: { ...context, owner: { uid: undefined, windows: { user: undefined, profile: base } } },
        }).trees,
      ).toEqual([worktree]);
    });
  });

  it('does not believe a repository or a record another user owns (their ownership injected: a test cannot chown without root)', () => {
    const system = systemTrust();
    const ownedBy = (owned: string, uid: number): TrustContext => {
      const as = <T extends OwnershipStats>(file: string, real: T): T =>
        file === owned ? Object.assign(Object.create(Object.getPrototypeOf(real)), real, { uid }) : real;
      return {
        owner: system.owner,
        lstat: (file) => as(file, system.lstat(file)),
        stat: (file) => as(file, system.stat(file)),
      };
    };
    const other = (system.owner.uid ?? 0) + 4242;
    expect(believed(repo, { trust: ownedBy(path.join(repo, '.git'), other) }).why).toEqual([
      `the repository above ${repo} is not trusted: ${repo}/.git: it belongs to uid ${other}, not to you`,
    ]);
    expect(believed(repo, { trust: ownedBy(repo, other) }).why).toEqual([
      `the repository above ${repo} is not trusted: ${repo}: it belongs to uid ${other}, not to you`,
    ]);
    for (const owned of [path.join(record, 'gitdir'), record, path.join(worktree, '.git'), worktree]) {
      expect(believed(repo, { trust: ownedBy(owned, other) })).toEqual({
        trees: [],
        why: [`the worktree record ${record} is not trusted: ${owned}: it belongs to uid ${other}, not to you`],
      });
    }
  });

  it('does not believe a record another uid owns, unless git would (as root, under sudo by that uid)', () => {
    if (process.geteuid?.() !== 0) {
      console.log(
        `Cannot give a record to another uid: this process is uid ${process.geteuid?.()}, and only root can chown. The injected case above checks the rule.`,
      );
      return;
    }
    const gitdir = path.join(record, 'gitdir');
    fs.chownSync(gitdir, 65534, 65534);
    expect(believed()).toEqual({
      trees: [],
      why: [`the worktree record ${record} is not trusted: ${gitdir}: it belongs to uid 65534, not to you`],
    });
    expect(believed(repo, { trust: systemTrust({ SUDO_UID: '65534' }) })).toEqual({ trees: [worktree], why: [] });
  });
});

describe('a POSIX ACL, which the mode bits hide', () => {
  const setfacl = spawnSync('setfacl', ['--version'], { encoding: 'utf8' });
  /** CI runs as root, and installs acl (test/e2e/harness/install.mjs): there the grant must be made. */
  const required = process.geteuid?.() === 0 || process.env.CI === 'true';

  it("keeps the private group's write bit from excusing a grant to another user", () => {
    if (setfacl.error) {
      if (required)
        throw new Error(`setfacl is needed here (root or CI): ${setfacl.error.message}; install Debian's acl`);
      console.log(`No setfacl on this machine (${setfacl.error.message}): a real ACL grant is not checked here.`);
      return;
    }
    // The user's own group counted as private, as a user of Debian's user private groups has it.
    const system = systemTrust();
    const gid = fs.statSync(record).gid;
    const privately: TrustContext = { ...system, owner: { ...system.owner, privateGid: gid } };
    fs.chmodSync(record, 0o775);
    expect(believed(repo, { trust: privately })).toEqual({ trees: [worktree], why: [] });

    // Back to 0755, then a grant: the group bits now show the ACL's mask, rwx.
    fs.chmodSync(record, 0o755);
    execFileSync('setfacl', ['-m', 'u:nobody:rwx', record]);
    expect(execFileSync('getfacl', ['-c', record], { encoding: 'utf8' })).toContain('user:nobody:rwx');
    expect(fs.statSync(record).mode & 0o777).toBe(0o775);
    expect(believed(repo, { trust: privately })).toEqual({
      trees: [],
      why: [`the worktree record ${record} is not trusted: ${record}: its ACL may let other users write to it`],
    });
    // Asked once per file version: a lookup on the hot path starts no process.
    const spawned = jest.spyOn(childProcess, 'execFileSync');
    for (let i = 0; i < 20; i++) worktreeHolding(path.join(worktree, 'src'), [repo], { trust: privately });
    expect(spawned).not.toHaveBeenCalled();
    spawned.mockRestore();

    // The grant taken back (the ACL's ctime moves): believed again, with the same group bits.
    execFileSync('setfacl', ['-b', record]);
    fs.chmodSync(record, 0o775);
    expect(believed(repo, { trust: privately })).toEqual({ trees: [worktree], why: [] });
  });
});
