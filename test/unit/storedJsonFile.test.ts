// The store's small JSON files beside a conversation (the findings' anchors, the kept findings):
// one class, written under the folder's lock like every other file of the folder, and a failed
// write reaches whoever awaits the save, with one warning.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AnchorFile } from '../../extension/src/review/anchorFile';
import { FindingsFile } from '../../extension/src/review/findingsFile';
import { FolderLockLostError, LOCK_FILE, setFolderLockTimingForTests } from '../../extension/src/review/folderLock';
import type { ReviewFinding } from '../../extension/src/render/findingExtraction';
import { expectDurablyReplaced, watchFileEvents } from './durableWrites';
import { silentLogger, type Logger } from '../../shared/logger';
import { logTo } from '../support/loggedLines';
import { lockRecord } from '../support/lockRecords';

const finding: ReviewFinding = {
  id: 'f-1',
  severity: 'bug',
  title: 'Off by one',
  reference: 'src/a.ts:3',
  file: '/work/app/src/a.ts',
  line: 3,
  endLine: 3,
  reviewLine: 5,
  markdown: '**Bug: Off by one** in src/a.ts:3',
  suggestions: [],
  suggestionTokens: [],
};
const anchor = {
  id: 'f-1',
  file: '/work/app/src/a.ts',
  line: 3,
  endLine: 4,
  remembered: ['let i = 0;', 'i <= n'],
  stale: false,
};

/** Each file as its callers use it: saved with one value, loaded back as what was saved. */
const kinds = [
  {
    name: 'anchors.json',
    open: (directory: string, log: Logger) => new AnchorFile(directory, log),
    save: (file: AnchorFile | FindingsFile) => (file as AnchorFile).save([anchor]),
    load: async (file: AnchorFile | FindingsFile) => (file as AnchorFile).load(),
    saved: [anchor],
  },
  {
    name: 'findings.json',
    open: (directory: string, log: Logger) => new FindingsFile(directory, log),
    save: (file: AnchorFile | FindingsFile) => (file as FindingsFile).save(7, [finding]),
    load: async (file: AnchorFile | FindingsFile) => (file as FindingsFile).load(7),
    saved: [finding],
  },
];

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-stored-json-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.each(kinds)('$name', ({ name, open: open_, save, load, saved }) => {
  it('is written under the folder lock, crash-safely, and read back by the next window', async () => {
    const directory = path.join(root, 'conversation');
    const file = open_(directory, silentLogger);
    const watch = await watchFileEvents();
    const lockHeld: boolean[] = [];
    // The watch's own spy on rename, told to look at the lock before each rename it passes on.
    const rename = jest.spyOn(fs.promises, 'rename');
    const renameThrough = rename.getMockImplementation()!;
    rename.mockImplementation(async (from, to) => {
      if (path.basename(String(to)) === name) lockHeld.push(fs.existsSync(path.join(directory, LOCK_FILE)));
      return renameThrough(from, to);
    });
    try {
      await save(file);
    } finally {
      watch.stop();
    }
    expect(lockHeld).toEqual([true]);
    expectDurablyReplaced(watch.events, path.join(directory, name));
    expect(await load(open_(directory, silentLogger))).toEqual(saved);
  });

  it('checks its hold once the file is written and fsynced, right before the rename', async () => {
    const directory = path.join(root, 'conversation');
    const target = path.join(directory, name);
    const BOUND_MS = 400;
    const restore = setFolderLockTimingForTests({ staleAfterMs: BOUND_MS, refreshEveryMs: BOUND_MS / 10 });
    const open = fs.promises.open.bind(fs.promises);
    jest.spyOn(fs.promises, 'open').mockImplementation((async (
      file: fs.PathLike,
      flags?: string | number,
      mode?: number,
    ) => {
      const handle = await open(file, flags, mode);
      if (!path.basename(String(file)).startsWith(`.tmp-${name}`)) return handle;
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        await sync();
        // A slow fsync (the thread held past half the bound, so no refresh ran), during which
        // another window took the folder over.
        fs.rmSync(path.join(directory, LOCK_FILE));
        fs.writeFileSync(path.join(directory, LOCK_FILE), lockRecord(process.ppid, 'aaaaaaaaaaaaaaaa'));
        for (const end = performance.now() + BOUND_MS * 0.6; performance.now() < end;);
      };
      return handle;
    }) as typeof fs.promises.open);
    try {
      const saved = save(open_(directory, silentLogger));
      await expect(saved).rejects.toThrow(FolderLockLostError);
      expect(fs.existsSync(target)).toBe(false);
      expect(fs.readdirSync(directory).filter((entry) => entry.startsWith('.tmp-'))).toEqual([]);
    } finally {
      restore();
    }
  });

  it('rejects a save it could not write, with one warning naming the file, and a later save still works', async () => {
    const blocker = path.join(root, 'not-a-folder');
    fs.writeFileSync(blocker, 'a file where the conversation folder should be');
    const directory = path.join(blocker, 'conversation');
    const warnings: string[] = [];
    const file = open_(directory, logTo(warnings));
    await expect(save(file)).rejects.toThrow();
    expect(warnings).toEqual([expect.stringContaining(path.join(directory, name))]);
    await file.idle();

    fs.rmSync(blocker);
    await save(file);
    expect(await load(open_(directory, silentLogger))).toEqual(saved);
  });
});
