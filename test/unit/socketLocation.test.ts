import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { privateSocketDirectory, publishStableLink, removeDeadHostSockets, socketLocation, withdrawStableLink } from '../../extension/src/ipc/socketLocation';

describe('socket location', () => {
  let runtime: string;
  const savedXdg = process.env.XDG_RUNTIME_DIR;
  beforeEach(() => {
    runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'xdg-'));
    process.env.XDG_RUNTIME_DIR = runtime;
  });
  afterEach(() => {
    process.env.XDG_RUNTIME_DIR = savedXdg;
    fs.rmSync(runtime, { recursive: true, force: true });
  });

  it('uses a 0700 directory under XDG_RUNTIME_DIR and keeps paths under 100 characters', () => {
    const location = socketLocation('abcdef012345', 4194304);
    expect(location.directory).toBe(path.join(runtime, 'redline'));
    expect(fs.statSync(location.directory!).mode & 0o777).toBe(0o700);
    expect(location.ownPath.length).toBeLessThan(100);
    expect(location.stablePath.length).toBeLessThan(100);
    expect(location.ownPath).not.toBe(location.stablePath);
  });

  it('tightens a directory that was left too open', () => {
    const dir = path.join(runtime, 'redline');
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    privateSocketDirectory();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a symlinked directory and falls back to the temp dir', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
    fs.symlinkSync(elsewhere, path.join(runtime, 'redline'));
    expect(privateSocketDirectory()).not.toBe(path.join(runtime, 'redline'));
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('points the stable link at the newest host and withdraws it only while it is still that host', () => {
    const older = socketLocation('abcdef012345', 100);
    const newer = socketLocation('abcdef012345', 200);
    publishStableLink(older);
    expect(fs.readlinkSync(older.stablePath)).toBe(older.ownPath);
    publishStableLink(newer);
    expect(fs.readlinkSync(newer.stablePath)).toBe(newer.ownPath);
    withdrawStableLink(older); // the old host shutting down after a reload
    expect(fs.readlinkSync(newer.stablePath)).toBe(newer.ownPath);
    withdrawStableLink(newer);
    expect(fs.existsSync(newer.stablePath)).toBe(false);
  });

  it('removes sockets of dead hosts and dangling links, and nothing else', () => {
    const dir = privateSocketDirectory();
    const deadPid = 2 ** 22 + 12345; // above pid_max on Linux: never a live process
    const files = {
      dead: path.join(dir, `abcdef012345-${deadPid}.sock`),
      live: path.join(dir, `abcdef012345-${process.pid}.sock`),
      dangling: path.join(dir, 'fedcba543210.sock'),
      alive: path.join(dir, 'abcdef012345.sock'),
      unrelated: path.join(dir, 'notes.txt'),
    };
    fs.writeFileSync(files.dead, '');
    fs.writeFileSync(files.live, '');
    fs.symlinkSync(path.join(dir, 'gone.sock'), files.dangling);
    fs.symlinkSync(files.live, files.alive);
    fs.writeFileSync(files.unrelated, '');
    expect(removeDeadHostSockets(dir).sort()).toEqual([path.basename(files.dead), path.basename(files.dangling)].sort());
    for (const kept of [files.live, files.alive, files.unrelated]) expect(fs.existsSync(kept)).toBe(true);
  });
});
