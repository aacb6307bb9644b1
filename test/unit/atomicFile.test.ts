// The one crash-safe writer every file Redline writes goes through: a temp file beside the target
// with a name no one can plant, every byte written however few the disk takes at a time, fsynced,
// renamed into place, the directory fsynced; on failure the old file stays and no temp is left.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { replaceFile, replaceFileSync, TEMP_PREFIX } from '../../shared/atomicFile';
import { expectDurablyReplaced, shortWrites, watchFileEvents } from './durableWrites';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-atomic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each([
  [
    'replaceFile',
    (target: string, data: string, mode?: number, exactMode?: boolean) =>
      replaceFile(target, data, { mode, exactMode }),
  ],
  [
    'replaceFileSync',
    async (target: string, data: string, mode?: number, exactMode?: boolean) =>
      replaceFileSync(target, data, { mode, exactMode }),
  ],
])('%s', (_name, replace) => {
  it('fsyncs a temp file beside the target, renames it into place, then fsyncs the directory', async () => {
    const target = path.join(dir, 'state.json');
    fs.writeFileSync(target, 'old');
    const watch = await watchFileEvents();
    try {
      await replace(target, 'new');
    } finally {
      watch.stop();
    }
    expectDurablyReplaced(watch.events, target);
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('makes a new file 0600 unless told otherwise, and sets an exact mode when asked', async () => {
    if (process.platform === 'win32') return;
    const target = path.join(dir, 'private.json');
    await replace(target, '{}');
    expect(fs.statSync(target).mode & 0o7777).toBe(0o600);
    const previous = process.umask(0o077);
    try {
      await replace(target, '{}', 0o640, true);
    } finally {
      process.umask(previous);
    }
    expect(fs.statSync(target).mode & 0o7777).toBe(0o640);
  });

  it('fails, leaving the old file and no temp, when the target cannot be replaced', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(path.join(target, 'inside'), { recursive: true });
    await expect(replace(target, 'new')).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['taken']);
    expect(fs.statSync(target).isDirectory()).toBe(true);
  });
});

it('temp names are new each time and created exclusively, so a planted file or link is never written through', async () => {
  const target = path.join(dir, 'state.json');
  const victim = path.join(dir, 'victim');
  fs.writeFileSync(victim, 'untouched');
  // Every name an older writer would have used for its temp file: the pid, the time, a fixed suffix.
  for (const name of [`state.json.${process.pid}.tmp`, `${TEMP_PREFIX}state.json`])
    fs.symlinkSync(victim, path.join(dir, name));
  await replaceFile(target, 'one');
  replaceFileSync(target, 'two');
  expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
  expect(fs.readFileSync(target, 'utf8')).toBe('two');
});

it('writes every byte when the disk takes a few at a time, and fails when it takes none', async () => {
  const target = path.join(dir, 'state.json');
  const text = JSON.stringify({ text: 'é'.repeat(1000) });
  let limit = 13;
  const disk = await shortWrites(() => limit);
  try {
    await replaceFile(target, text);
    expect(fs.readFileSync(target, 'utf8')).toBe(text);
    limit = 0;
    await expect(replaceFile(target, 'lost')).rejects.toThrow(/no more bytes/);
  } finally {
    disk.restore();
  }
  expect(fs.readFileSync(target, 'utf8')).toBe(text);
  expect(fs.readdirSync(dir)).toEqual(['state.json']);
});
