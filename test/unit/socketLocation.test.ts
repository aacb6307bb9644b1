import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { removeDeadHostSockets, socketLocation } from '../../extension/src/ipc/socketLocation';
import { RUNTIME_DIR_ENV } from '../../shared/environment';
import { isSafeParent, privateDirectory } from '../../shared/privateDirectory';

describe('socket location', () => {
  let runtime: string;
  const savedXdg = process.env.XDG_RUNTIME_DIR;
  // These tests are of the usual places: the test run's own folder would override them.
  const savedRuntimeDir = process.env[RUNTIME_DIR_ENV];
  beforeEach(() => {
    runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'xdg-'));
    process.env.XDG_RUNTIME_DIR = runtime;
    delete process.env[RUNTIME_DIR_ENV];
  });
  afterEach(() => {
    process.env[RUNTIME_DIR_ENV] = savedRuntimeDir;
    process.env.XDG_RUNTIME_DIR = savedXdg;
    fs.rmSync(runtime, { recursive: true, force: true });
  });

  it('uses a 0700 directory under XDG_RUNTIME_DIR and keeps paths under 100 characters', () => {
    const location = socketLocation('abcdef012345', 4194304);
    expect(location.directory).toBe(path.join(runtime, 'redline'));
    expect(fs.statSync(location.directory).mode & 0o777).toBe(0o700);
    expect(location.path).toBe(path.join(runtime, 'redline', 'abcdef012345-4194304.sock'));
    expect(location.path.length).toBeLessThan(100);
  });

  it('names a named pipe on Windows for the host, with discovery in the private directory', () => {
    const location = socketLocation('abcdef012345', 4242, 'win32');
    expect(location.path).toBe('\\\\.\\pipe\\redline-abcdef012345-4242');
    expect(location.directory).toBe(path.join(runtime, 'redline'));
  });

  it('tightens a directory that was left too open', () => {
    const dir = path.join(runtime, 'redline');
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    privateDirectory();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlinked directory and falls back to the temp dir', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(runtime, 'redline'));
    expect(privateDirectory()).not.toBe(path.join(runtime, 'redline'));
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  describe('when every private name is taken, falls back to a fresh mkdtemp directory and still starts', () => {
    const uid = process.getuid!();
    const made: string[] = [];
    afterEach(() => {
      for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** A directory the fallback made: fresh, private, and none of the taken names. */
    function expectFresh(dir: string, taken: string[]): void {
      made.push(dir);
      expect(taken).not.toContain(dir);
      expect(path.basename(dir)).toMatch(/^redline-.{6}$/);
      const stat = fs.lstatSync(dir);
      expect(stat.isDirectory()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(fs.readdirSync(dir)).toEqual([]);
    }

    it('taken by another user (simulated by asking as another uid: every existing directory then belongs to someone else)', () => {
      const otherUid = uid + 4242;
      const squatted = path.join(runtime, 'redline');
      fs.mkdirSync(squatted, { mode: 0o700 });
      for (const dir of [path.join(os.tmpdir(), `redline-${otherUid}`), `/tmp/redline-${otherUid}`]) {
        // Stands in for directories created in advance by the squatter (owned by our real uid here).
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        made.push(dir);
      }
      const dir = privateDirectory(process.env, otherUid);
      expectFresh(dir, [squatted, ...made]);
    });

    it('taken by a file and by a symlink at the names: neither is used', () => {
      const saved = process.env.TMPDIR;
      const privateTmp = fs.mkdtempSync(path.join(os.tmpdir(), 't-'));
      made.push(privateTmp);
      process.env.TMPDIR = privateTmp;
      try {
        const file = path.join(runtime, 'redline');
        const link = path.join(privateTmp, `redline-${uid}`);
        fs.writeFileSync(file, 'taken');
        fs.symlinkSync(fs.mkdtempSync(path.join(privateTmp, 'target-')), link);
        const dir = privateDirectory({ XDG_RUNTIME_DIR: runtime }, uid);
        // /tmp/redline-<uid> may be this user's own valid directory on this machine; otherwise a fresh one.
        expect([file, link]).not.toContain(dir);
        const stat = fs.lstatSync(dir);
        expect(stat.isDirectory() && !stat.isSymbolicLink() && stat.uid === uid && (stat.mode & 0o777) === 0o700).toBe(
          true,
        );
        if (dir !== `/tmp/redline-${uid}`) made.push(dir);
      } finally {
        process.env.TMPDIR = saved;
      }
    });

    it('judges a parent directory by its owner and sticky bit', () => {
      const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'parent-'));
      made.push(parent);
      fs.chmodSync(parent, 0o700);
      expect(isSafeParent(parent, uid)).toBe(true);
      // Someone else's directory is unsafe, unless it is root's (like /tmp), which every user must trust.
      expect(isSafeParent(parent, uid + 4242)).toBe(uid === 0);
      fs.chmodSync(parent, 0o777);
      expect(isSafeParent(parent, uid)).toBe(false); // anyone could rename our directory away
      fs.chmodSync(parent, 0o1777);
      expect(isSafeParent(parent, uid)).toBe(true); // /tmp's own mode
      expect(isSafeParent(path.join(parent, 'missing'), uid)).toBe(false);
    });
  });

  it('removes sockets and discovery files of dead hosts and dangling links, and nothing else', () => {
    const dir = privateDirectory();
    const deadPid = 2 ** 22 + 12345; // above pid_max on Linux: never a live process
    const files = {
      dead: path.join(dir, `abcdef012345-${deadPid}.sock`),
      deadWindow: path.join(dir, `window-${deadPid}-abcdef012345.json`),
      live: path.join(dir, `abcdef012345-${process.pid}.sock`),
      liveWindow: path.join(dir, `window-${process.pid}-abcdef012345.json`),
      dangling: path.join(dir, 'fedcba543210.sock'),
      alive: path.join(dir, 'abcdef012345.sock'),
      unrelated: path.join(dir, 'notes.txt'),
    };
    for (const file of [files.dead, files.deadWindow, files.live, files.liveWindow]) fs.writeFileSync(file, '');
    fs.symlinkSync(path.join(dir, 'gone.sock'), files.dangling);
    fs.symlinkSync(files.live, files.alive);
    fs.writeFileSync(files.unrelated, '');
    expect(removeDeadHostSockets(dir).sort()).toEqual(
      [files.dead, files.deadWindow, files.dangling].map((f) => path.basename(f)).sort(),
    );
    for (const kept of [files.live, files.liveWindow, files.alive, files.unrelated])
      expect(fs.existsSync(kept)).toBe(true);
  });
});
