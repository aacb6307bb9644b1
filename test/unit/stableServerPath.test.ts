// The launcher at ~/.redline/mcp-server.js: written atomically into a private directory, kept
// pointing at the newest installed Redline, replaced when that one is uninstalled, and, run with
// plain `node`, it reaches the server (or says clearly what to do when the server is gone).

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Logger, type LogEntry } from '../../shared/logger';
import { expectDurablyReplaced, watchFileEvents } from './durableWrites';
import {
  compareVersions,
  launcherSource,
  parseLauncher,
  publishStableServerPath,
  readLauncherRecord,
  serverPathForConfigs,
  stableServerPath,
  updateStableServerPath,
} from '../../extension/src/assistants/stableServerPath';

let home: string;
let installs: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-home-'));
  installs = fs.mkdtempSync(path.join(os.tmpdir(), "redline ext's "));
});

afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(installs, { recursive: true, force: true });
});

/** A fake installed Redline: its dist/mcp-server.js prints what it was started with. */
function install(version: string, script = FAKE_SERVER): string {
  const file = path.join(installs, `redline-dev.redline-${version}`, 'dist', 'mcp-server.js');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, script);
  return file;
}

// With the bundle's own first line: `require` must skip a hashbang as `node <file>` does.
const FAKE_SERVER = `#!/usr/bin/env node
process.stdout.write(JSON.stringify({ file: __filename, argv: process.argv.slice(2), sibling: require('fs').existsSync(require('path').join(__dirname, 'sibling.txt')) }));
`;

function runLauncher(...args: string[]) {
  return spawnSync(process.execPath, [stableServerPath(home), ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
}

describe('updateStableServerPath', () => {
  it('writes ~/.redline/mcp-server.js in a 0700 directory, and running it with node reaches the server with its arguments', () => {
    const server = install('0.1.0');
    fs.writeFileSync(path.join(path.dirname(server), 'sibling.txt'), '');
    const update = updateStableServerPath(server, '0.1.0', home);
    expect(update).toEqual({ kind: 'written', file: path.join(home, '.redline', 'mcp-server.js') });
    if (process.platform !== 'win32') expect(fs.statSync(path.join(home, '.redline')).mode & 0o777).toBe(0o700);

    const run = runLauncher('--workspace', '/some/folder');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // The server runs as its own file: __filename and __dirname are the installation's, so its siblings are found.
    expect(JSON.parse(run.stdout)).toEqual({ file: server, argv: ['--workspace', '/some/folder'], sibling: true });
  });

  it('is replaced crash-safely: fsynced, renamed into place, its directory fsynced', async () => {
    const server = install('0.1.0');
    const watch = await watchFileEvents();
    try {
      updateStableServerPath(server, '0.1.0', home);
    } finally {
      watch.stop();
    }
    expectDurablyReplaced(watch.events, stableServerPath(home));
    expect(fs.readdirSync(path.join(home, '.redline'))).toEqual(['mcp-server.js']);
  });

  it('records the version and target, and holds no token or socket', () => {
    const server = install('0.1.0');
    updateStableServerPath(server, '0.1.0', home);
    const source = fs.readFileSync(stableServerPath(home), 'utf8');
    expect(parseLauncher(source)).toEqual({ version: '0.1.0', target: server });
    expect(readLauncherRecord(home)).toEqual({ version: '0.1.0', target: server });
    expect(source).not.toMatch(/REDLINE_IPC|token|\.sock/i);
  });

  it('does not rewrite a launcher that is already right', () => {
    const server = install('0.1.0');
    updateStableServerPath(server, '0.1.0', home);
    const before = fs.statSync(stableServerPath(home)).ino;
    expect(updateStableServerPath(server, '0.1.0', home).kind).toBe('current');
    expect(fs.statSync(stableServerPath(home)).ino).toBe(before);
  });

  it('moves to a newer version, and an older one (another editor, not yet updated) leaves it alone', () => {
    const older = install('0.9.2');
    const newer = install('0.10.0');
    updateStableServerPath(older, '0.9.2', home);
    expect(updateStableServerPath(newer, '0.10.0', home)).toMatchObject({
      kind: 'written',
      replaced: { version: '0.9.2', target: older },
    });
    expect(updateStableServerPath(older, '0.9.2', home)).toMatchObject({
      kind: 'kept-newer',
      recorded: { version: '0.10.0' },
    });
    expect(readLauncherRecord(home)?.target).toBe(newer);
  });

  it('orders release candidates as semver does: rc.9 leaves an rc.10 launcher alone', () => {
    const rc9 = install('1.0.0-rc.9');
    const rc10 = install('1.0.0-rc.10');
    updateStableServerPath(rc10, '1.0.0-rc.10', home);
    expect(updateStableServerPath(rc9, '1.0.0-rc.9', home)).toMatchObject({
      kind: 'kept-newer',
      recorded: { version: '1.0.0-rc.10' },
    });
    expect(readLauncherRecord(home)?.target).toBe(rc10);
  });

  it('replaces a launcher whose recorded version semver cannot read, even if its server is there', () => {
    const unknown = install('unknown');
    const server = install('0.1.0');
    fs.mkdirSync(path.join(home, '.redline'), { mode: 0o700 });
    fs.writeFileSync(stableServerPath(home), launcherSource({ version: 'v-next', target: unknown }));
    expect(updateStableServerPath(server, '0.1.0', home)).toMatchObject({
      kind: 'written',
      replaced: { version: 'v-next', target: unknown },
    });
    expect(readLauncherRecord(home)?.target).toBe(server);
  });

  it('an equal version from another installation (VS Code and Cursor both on 0.2.0) takes over', () => {
    const vscode = install('0.2.0');
    const cursor = path.join(installs, 'cursor', 'dist', 'mcp-server.js');
    fs.mkdirSync(path.dirname(cursor), { recursive: true });
    fs.writeFileSync(cursor, FAKE_SERVER);
    updateStableServerPath(vscode, '0.2.0', home);
    expect(updateStableServerPath(cursor, '0.2.0', home).kind).toBe('written');
    expect(readLauncherRecord(home)?.target).toBe(cursor);
  });

  it('replaces a newer version whose server was uninstalled', () => {
    const newer = install('2.0.0');
    const older = install('1.0.0');
    updateStableServerPath(newer, '2.0.0', home);
    fs.rmSync(path.dirname(path.dirname(newer)), { recursive: true });
    expect(updateStableServerPath(older, '1.0.0', home)).toMatchObject({
      kind: 'written',
      replaced: { version: '2.0.0' },
    });
    expect(readLauncherRecord(home)?.target).toBe(older);
  });

  it('replaces a file it did not write, and leaves no temporary file behind', () => {
    fs.mkdirSync(path.join(home, '.redline'));
    fs.writeFileSync(stableServerPath(home), 'console.log("someone else")\n');
    const server = install('0.1.0');
    expect(updateStableServerPath(server, '0.1.0', home).kind).toBe('written');
    expect(fs.readdirSync(path.join(home, '.redline'))).toEqual(['mcp-server.js']);
  });

  it('writes atomically (a new file renamed into place): a reader of the old launcher never sees it change under it', () => {
    const a = install('1.0.0');
    const b = install('1.0.1');
    updateStableServerPath(a, '1.0.0', home);
    // A hard link to the old launcher: a write in place would change it too; a rename leaves it whole.
    const held = path.join(home, 'held-open.js');
    fs.linkSync(stableServerPath(home), held);
    const oldSource = fs.readFileSync(held, 'utf8');
    updateStableServerPath(b, '1.0.1', home);
    expect(fs.readFileSync(held, 'utf8')).toBe(oldSource);
    expect(fs.statSync(held).ino).not.toBe(fs.statSync(stableServerPath(home)).ino);
    expect(readLauncherRecord(home)?.target).toBe(b);
    expect(fs.readdirSync(path.join(home, '.redline'))).toEqual(['mcp-server.js']);
  });

  it('tightens a ~/.redline that others could write to, and refuses one that is a file', () => {
    if (process.platform === 'win32') return;
    fs.mkdirSync(path.join(home, '.redline'), { mode: 0o777 });
    fs.chmodSync(path.join(home, '.redline'), 0o777);
    updateStableServerPath(install('0.1.0'), '0.1.0', home);
    expect(fs.statSync(path.join(home, '.redline')).mode & 0o777).toBe(0o700);

    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-home-'));
    try {
      fs.writeFileSync(path.join(other, '.redline'), '');
      expect(() => updateStableServerPath(install('0.1.0'), '0.1.0', other)).toThrow();
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('the launcher when its server is gone', () => {
  it('says what to do on stderr, with no stack trace, and exits non-zero', () => {
    const server = install('0.1.0');
    updateStableServerPath(server, '0.1.0', home);
    fs.rmSync(path.dirname(path.dirname(server)), { recursive: true });
    const run = runLauncher();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Redline: the MCP server this launcher runs is gone');
    expect(run.stderr).toContain(server);
    expect(run.stderr).toContain('Open VS Code');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('publishStableServerPath (activation)', () => {
  it('writes the launcher for the extension folder and logs it', async () => {
    const server = install('0.3.0');
    const logged: LogEntry[] = [];
    const log = new Logger({ write: (entry) => logged.push(entry) }, 'launcher');
    await publishStableServerPath(path.dirname(path.dirname(server)), log, { version: '0.3.0', home });
    expect(readLauncherRecord(home)).toEqual({ version: '0.3.0', target: server });
    expect(logged).toEqual([expect.objectContaining({ level: 'info', message: expect.stringContaining('0.3.0') })]);
  });

  it('logs a failure and never throws', async () => {
    fs.writeFileSync(path.join(home, '.redline'), 'a file where the directory should be');
    const logged: LogEntry[] = [];
    const log = new Logger({ write: (entry) => logged.push(entry) }, 'launcher');
    await expect(publishStableServerPath(installs, log, { version: '0.3.0', home })).resolves.toBeUndefined();
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', fields: { error: expect.objectContaining({ code: 'EEXIST' }) } }),
    ]);
  });
});

describe('serverPathForConfigs', () => {
  it("names the launcher while it runs an installed server, and this version's file otherwise", () => {
    const server = install('0.1.0');
    expect(serverPathForConfigs(server, home)).toEqual({ serverPath: server, stable: false });
    updateStableServerPath(server, '0.1.0', home);
    expect(serverPathForConfigs(server, home)).toEqual({ serverPath: stableServerPath(home), stable: true });
    fs.rmSync(server);
    expect(serverPathForConfigs(server, home)).toEqual({ serverPath: server, stable: false });
  });
});

describe('compareVersions', () => {
  it.each([
    ['0.10.0', '0.9.2', 1],
    ['1.0.0', '1.0.0', 0],
    ['1.0.0-rc.10', '1.0.0-rc.9', 1],
    ['2.0.0-rc.2', '2.0.0-rc.10', -1],
    ['1.0.0-alpha.beta', '1.0.0-alpha.1', 1],
    ['1.0.0+build.5', '1.0.0', 0],
    // What semver cannot read sorts before every version it can: a launcher recording it is replaced.
    ['1.0', '0.0.1', -1],
    ['not a version', '0.0.0-dev', -1],
    ['garbage', '1.0', 0],
    ['1.0.0-beta.1', '1.0.0', -1],
    ['1.0.0', '1.0.0-rc.1', 1],
    ['1.0.0-alpha', '1.0.0-beta', -1],
    ['0.0.0-dev', '0.1.0', -1],
  ])('%s against %s is %d', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });
});

describe('launcherSource', () => {
  it('quotes any path as a JavaScript string, Windows paths and quotes included', () => {
    const target = 'C:\\Users\\O\'Brien "x"\\.vscode\\extensions\\redline\\dist\\mcp-server.js';
    const source = launcherSource({ version: '1.0.0', target });
    expect(parseLauncher(source)).toEqual({ version: '1.0.0', target });
    expect(() => new Function('require', 'process', '__filename', source.replace(/^#!.*\n/, ''))).not.toThrow();
  });
});
