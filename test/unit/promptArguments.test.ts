// What the prompts accept as arguments, and how they quote them into the command they suggest.

import { execFileSync } from 'child_process';
import { GIT_REVISION, fenceFor, pathList, shellQuote, splitPaths } from '../../mcp-server/src/prompts/promptArguments';
import {
  earlierReviewRevision,
  earlierReviewUri,
  isRedlineResource,
} from '../../mcp-server/src/resources/resourceUris';

describe('prompt arguments', () => {
  it('takes one git revision, and nothing a shell or git would read as more', () => {
    for (const ok of [
      'HEAD',
      'main',
      'origin/main',
      'feature/login-2',
      'v1.2.3',
      'HEAD~3',
      'HEAD^2',
      'main@{u}',
      'a1b2c3d',
      'release+1',
    ]) {
      expect(GIT_REVISION.test(ok)).toBe(true);
    }
    for (const bad of [
      '',
      '-p',
      '--output=/tmp/x',
      'main..dev',
      'main dev',
      'main;ls',
      '$(id)',
      '`id`',
      "it's",
      'a\nb',
      'x'.repeat(201),
    ]) {
      expect(GIT_REVISION.test(bad)).toBe(false);
    }
  });

  it('splits paths on spaces and commas, and refuses one that starts with a dash or holds a control character', () => {
    expect(splitPaths(' src/a.ts,src/b.ts  docs ')).toEqual(['src/a.ts', 'src/b.ts', 'docs']);
    expect(splitPaths(undefined)).toEqual([]);
    expect(pathList.safeParse('src/a.ts --force').success).toBe(false);
    expect(pathList.safeParse('src/a.ts\u202e').success).toBe(false);
    expect(pathList.safeParse('src/a.ts docs/').success).toBe(true);
  });

  it('quotes a path so that a POSIX shell reads it back as it was', () => {
    for (const path of ["it's.ts", 'a b/$(id)`x`.ts', "''", 'plain.ts']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(path)}`], { encoding: 'utf8' })).toBe(path);
    }
  });

  it('fences code with more backticks than it holds', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ``` b')).toBe('````');
    expect(fenceFor('`````')).toBe('``````');
    // More runs of backticks than one call's arguments can hold.
    expect(fenceFor('`a'.repeat(300_000) + '``')).toBe('```');
  });
});

describe('resource addresses', () => {
  it('names earlier reviews by revision, and knows its own addresses from others', () => {
    expect(earlierReviewUri(12)).toBe('redline://review/history/12');
    expect(earlierReviewRevision('redline://review/history/12')).toBe(12);
    for (const other of [
      'redline://review/history/0',
      'redline://review/history/01',
      'redline://review/history/1/x',
      'redline://review/history/' + '9'.repeat(16),
    ]) {
      expect(earlierReviewRevision(other)).toBeUndefined();
    }
    expect(isRedlineResource('redline://review/current')).toBe(true);
    expect(isRedlineResource('redline://selection')).toBe(true);
    expect(isRedlineResource('redline://review/current/')).toBe(false);
    expect(isRedlineResource('file:///etc/passwd')).toBe(false);
  });
});
