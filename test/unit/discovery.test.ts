import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  DISCOVERY_VERSION,
  discoveryFileName,
  parseWindowRecord,
  readDiscoveryFiles,
  writeDiscoveryFile,
  type WindowRecord,
} from '../../shared/discovery';
import { RUNTIME_DIR_ENV } from '../../shared/environment';
import { existingPrivateDirectories, privateDirectory } from '../../shared/privateDirectory';
import { expectDurablyReplaced, watchFileEvents } from './durableWrites';

const DEAD_PID = 2 ** 22 + 12345; // above pid_max on Linux: never a live process

function record(overrides: Partial<WindowRecord> = {}): WindowRecord {
  return {
    version: DISCOVERY_VERSION,
    pid: process.pid,
    folders: ['/work/app'],
    socketPath: '/run/redline/abc-1.sock',
    token: '0123456789abcdef0123456789abcdef',
    editor: 'Visual Studio Code',
    lastFocused: 1_700_000_000_000,
    started: 1_699_999_999_000,
    terminals: [1234, 5678],
    ...overrides,
  };
}

describe('discovery files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-disc-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are written 0600 and crash-safely (fsynced, renamed, the directory fsynced), over a file left too open, and read back', async () => {
    const file = path.join(dir, discoveryFileName(process.pid, 'abcdef012345'));
    fs.writeFileSync(file, 'left too open by someone', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    // A link at the name the temp file once had is never written through.
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'untouched');
    fs.symlinkSync(victim, `${file}.${process.pid}.tmp`);
    const beside = record({ socketPath: path.join(dir, `abcdef012345-${process.pid}.sock`) });
    const watch = await watchFileEvents();
    try {
      writeDiscoveryFile(file, beside);
    } finally {
      watch.stop();
    }
    expectDurablyReplaced(watch.events, file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
    expect(fs.readdirSync(dir).sort()).toEqual(
      [path.basename(file), `${path.basename(file)}.${process.pid}.tmp`, 'victim'].sort(),
    );
    expect(readDiscoveryFiles([dir])).toEqual([{ ...beside, file }]);
  });

  it('are trusted only with a socket in their own private directory', () => {
    const file = (key: string) => path.join(dir, discoveryFileName(process.pid, key));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-elsewhere-'));
    try {
      for (const [key, socketPath] of [
        ['aaaaaaaa', '/run/redline/abc-1.sock'],
        ['bbbbbbbb', path.join(elsewhere, 'abc-1.sock')],
        ['cccccccc', path.join(dir, '..', path.basename(elsewhere), 'abc-1.sock')],
        ['dddddddd', path.join(dir, 'sub', 'abc-1.sock')],
      ]) {
        writeDiscoveryFile(file(key), record({ socketPath }));
      }
      expect(readDiscoveryFiles([dir])).toEqual([]);
      // The same directory under another spelling (a symlink to it) is still beside.
      fs.symlinkSync(dir, path.join(elsewhere, 'link'));
      writeDiscoveryFile(file('eeeeeeee'), record({ socketPath: path.join(elsewhere, 'link', 'abc-1.sock') }));
      expect(readDiscoveryFiles([dir]).map((window) => window.file)).toEqual([file('eeeeeeee')]);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("of a pid that is another user's (EPERM) are stale: ignored and removed", () => {
    const theirs = path.join(dir, discoveryFileName(4321, 'abcdef012345'));
    writeDiscoveryFile(theirs, record({ pid: 4321, socketPath: path.join(dir, 'abcdef012345-4321.sock') }));
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    });
    try {
      expect(readDiscoveryFiles([dir])).toEqual([]);
      expect(kill).toHaveBeenCalledWith(4321, 0);
    } finally {
      kill.mockRestore();
    }
    expect(fs.existsSync(theirs)).toBe(false);
  });

  it('of processes that have exited are ignored and removed', () => {
    const dead = path.join(dir, discoveryFileName(DEAD_PID, 'abcdef012345'));
    writeDiscoveryFile(dead, record({ pid: DEAD_PID }));
    expect(readDiscoveryFiles([dir])).toEqual([]);
    expect(fs.existsSync(dead)).toBe(false);
  });

  it('are skipped, and left alone, when readable by others, malformed, too large, symlinked or naming another pid', () => {
    const name = (key: string) => path.join(dir, discoveryFileName(process.pid, key));
    fs.writeFileSync(name('aaaaaaaa'), JSON.stringify(record()), { mode: 0o644 });
    fs.chmodSync(name('aaaaaaaa'), 0o644);
    fs.writeFileSync(name('bbbbbbbb'), '{"version":1', { mode: 0o600 });
    fs.writeFileSync(name('cccccccc'), JSON.stringify({ ...record(), editor: 'x'.repeat(300 * 1024) }), {
      mode: 0o600,
    });
    fs.writeFileSync(path.join(dir, 'target.json'), JSON.stringify(record()), { mode: 0o600 });
    fs.symlinkSync(path.join(dir, 'target.json'), name('dddddddd'));
    writeDiscoveryFile(name('eeeeeeee'), record({ pid: 1 }));
    expect(readDiscoveryFiles([dir])).toEqual([]);
    expect(fs.readdirSync(dir)).toHaveLength(6);
  });

  it('validate every field', () => {
    expect(parseWindowRecord(record())).toEqual(record());
    const bad: Array<Partial<Record<keyof WindowRecord, unknown>>> = [
      { version: 2 },
      { pid: 0 },
      { pid: 1.5 },
      { folders: '/work' },
      { folders: [''] },
      { folders: ['/a\0b'] },
      { folders: Array.from({ length: 300 }, () => '/a') },
      { socketPath: 42 },
      { token: 'short' },
      { token: 'G'.repeat(32) },
      { editor: 'e'.repeat(201) },
      { lastFocused: Number.NaN },
      { lastFocused: '1' },
      { started: undefined },
      { terminals: [0] },
      { terminals: ['12'] },
      { terminals: Array.from({ length: 2000 }, () => 1) },
    ];
    for (const change of bad) expect(parseWindowRecord({ ...record(), ...change })).toBeUndefined();
    expect(parseWindowRecord(null)).toBeUndefined();
    expect(parseWindowRecord([])).toBeUndefined();
  });

  it('skip directories that cannot be read', () => {
    expect(readDiscoveryFiles([path.join(dir, 'missing')])).toEqual([]);
  });
});

describe('the private directories the MCP server looks in', () => {
  const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
  let runtime: string;
  beforeEach(() => {
    runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'xdg-'));
  });
  afterEach(() => {
    process.env.XDG_RUNTIME_DIR = saved.XDG_RUNTIME_DIR;
    fs.rmSync(runtime, { recursive: true, force: true });
  });

  it('include the one the extension made, and never one that others may enter', () => {
    const env = { XDG_RUNTIME_DIR: runtime };
    const made = privateDirectory(env);
    expect(existingPrivateDirectories(env)).toContain(made);
    fs.chmodSync(made, 0o755);
    expect(existingPrivateDirectories(env)).not.toContain(made);
  });

  it('are only the folder REDLINE_RUNTIME_DIR names, when it is set: a window in the usual places is not seen', () => {
    const usual = privateDirectory({ XDG_RUNTIME_DIR: runtime });
    const chosen = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-chosen-'));
    try {
      const env = { XDG_RUNTIME_DIR: runtime, [RUNTIME_DIR_ENV]: chosen };
      expect(privateDirectory(env)).toBe(chosen);
      expect(existingPrivateDirectories(env)).toEqual([chosen]);
      expect(existingPrivateDirectories(env)).not.toContain(usual);
    } finally {
      fs.rmSync(chosen, { recursive: true, force: true });
    }
  });

  it('refuse a REDLINE_RUNTIME_DIR that is a symlink or too long for a socket, saying which and why', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
    const link = path.join(runtime, 'link');
    try {
      fs.symlinkSync(elsewhere, link);
      expect(() => privateDirectory({ [RUNTIME_DIR_ENV]: link })).toThrow(
        `${RUNTIME_DIR_ENV} names ${link}, which cannot be used: ${link} is not a directory`,
      );
      const long = path.join(runtime, 'x'.repeat(80));
      expect(() => privateDirectory({ [RUNTIME_DIR_ENV]: long })).toThrow(
        /longer than 100 characters; choose a shorter path/,
      );
      expect(fs.existsSync(long)).toBe(false);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('never follow a symlink put in place of the directory', () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'elsewhere-'));
    try {
      fs.symlinkSync(elsewhere, path.join(runtime, 'redline'));
      expect(existingPrivateDirectories({ XDG_RUNTIME_DIR: runtime })).not.toContain(path.join(runtime, 'redline'));
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
