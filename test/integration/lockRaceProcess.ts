// One window of the lock race (folderLockRace.test.ts), in a process of its own, bundled and forked
// by the test. Each round it takes the folder's lock twice at once: once to mark when it holds it
// (an "enter" and an "exit" line appended to a shared log), and once through a real Conversation
// adding an item, and says how each went. Which of the two comes first (and so meets the stale
// lock) is the test's choice. Its wall clock may be shifted, as a machine's clock that was set wrong.

import { promises as fs } from 'fs';
import { Conversation } from '../../extension/src/review/conversation';
import { setFolderLockTimingForTests, withFolderLock } from '../../extension/src/review/folderLock';
import { stderrLogger } from '../support/loggedLines';
import { shiftWallClock } from '../support/shiftedClock';

export interface LockRaceSetup {
  readonly folder: string;
  readonly log: string;
  readonly name: string;
  readonly timing: { readonly staleAfterMs: number; readonly refreshEveryMs: number; readonly waitAtMostMs: number };
  /** How far this window's wall clock is off, in ms. */
  readonly clockShiftMs?: number;
}
export type LockRaceRequest = { readonly type: 'round'; readonly round: number; readonly addFirst: boolean };
export type LockRaceMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'round-done';
      readonly round: number;
      /** The marked hold: undefined when it succeeded, else why it failed. */
      readonly holdFailure?: string;
      /** The item's id once add() resolved, or why it failed. */
      readonly added: { readonly id: number; readonly text: string } | { readonly failure: string };
    };

async function main(): Promise<void> {
  const setup = JSON.parse(process.argv[2]) as LockRaceSetup;
  if (setup.clockShiftMs) shiftWallClock(setup.clockShiftMs);
  setFolderLockTimingForTests(setup.timing);
  const send = (message: LockRaceMessage) => process.send?.(message);
  const conversation = await Conversation.open(setup.folder, stderrLogger(setup.name));
  const mark = (line: string) => fs.appendFile(setup.log, `${line}\n`, { flag: 'a' });

  process.on('message', (message: LockRaceRequest) => {
    const who = `${setup.name}-${message.round}`;
    const text = `${who} says hello`;
    const addNow = () => conversation.add({ kind: 'message', text });
    const add = message.addFirst ? addNow() : undefined;
    // The Conversation asks for the lock a turn after add(); the marked hold waits a task for it.
    const first = message.addFirst ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
    const hold = first.then(() =>
      withFolderLock(setup.folder, async (held) => {
        await mark(`enter ${who}`);
        // A few calls while inside, so that a second holder would have time to come in.
        await fs.readdir(setup.folder);
        held.assertHeld();
        await mark(`exit ${who}`);
      }),
    );
    void Promise.allSettled([hold, add ?? addNow()]).then(([held, added]) =>
      send({
        type: 'round-done',
        round: message.round,
        ...(held.status === 'rejected' ? { holdFailure: String((held.reason as Error).message) } : {}),
        added:
          added.status === 'fulfilled'
            ? { id: Number(added.value.id), text }
            : { failure: String((added.reason as Error).message) },
      }),
    );
  });
  process.on('disconnect', () => void conversation.flushed().finally(() => process.exit(0)));
  send({ type: 'ready' });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`lock race process failed: ${String(error)}\n`);
    process.exit(1);
  });
}
