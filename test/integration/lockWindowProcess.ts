// One window of the folder lock's two-process tests, in a process of its own (bundled and started
// by the test, possibly in another PID namespace or with its clock shifted). It reads one command
// a line on stdin and answers one JSON event a line on stdout:
//   hold    → takes the lock and says "holding" (with its pid and the lock's record), keeps it
//             until "release", then says "released" (with why, if the hold failed);
//   take    → takes the lock, says "entered", and lets go at once ("released").

import * as fs from 'fs';
import * as path from 'path';
import * as readline from 'readline';
import { LOCK_FILE, setFolderLockTimingForTests, withFolderLock } from '../../extension/src/review/folderLock';
import { shiftWallClock } from '../support/shiftedClock';

export interface LockWindowSetup {
  readonly folder: string;
  readonly timing: { readonly staleAfterMs: number; readonly refreshEveryMs: number; readonly waitAtMostMs: number };
  readonly clockShiftMs?: number;
}

export type LockWindowEvent =
  | { readonly event: 'ready'; readonly pid: number }
  | { readonly event: 'holding'; readonly record: string }
  | { readonly event: 'entered' }
  | { readonly event: 'released'; readonly failure?: string };

function main(): void {
  const setup = JSON.parse(process.argv[2]) as LockWindowSetup;
  if (setup.clockShiftMs) shiftWallClock(setup.clockShiftMs);
  setFolderLockTimingForTests(setup.timing);
  const say = (event: LockWindowEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
  let letGo: (() => void) | undefined;
  const done = (hold: Promise<unknown>) =>
    hold.then(
      () => say({ event: 'released' }),
      (error: unknown) => say({ event: 'released', failure: String((error as Error).message) }),
    );
  readline.createInterface({ input: process.stdin }).on('line', (command) => {
    if (command === 'hold')
      void done(
        withFolderLock(setup.folder, async () => {
          say({ event: 'holding', record: fs.readFileSync(path.join(setup.folder, LOCK_FILE), 'utf8') });
          await new Promise<void>((resolve) => (letGo = resolve));
        }),
      );
    if (command === 'release') letGo?.();
    if (command === 'take') void done(withFolderLock(setup.folder, async () => say({ event: 'entered' })));
  });
  process.stdin.on('end', () => process.exit(0));
  say({ event: 'ready', pid: process.pid });
}

if (require.main === module) main();
