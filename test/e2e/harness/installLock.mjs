// One installer at a time per cache folder (two test runs may start together): a lock directory
// holding the owner's pid. A lock left by a process that died is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, sleep } from './processes.mjs';

const MINUTE = 60_000;

/**
 * Waits until `lockDir` is this process's, for up to 20 minutes; `waiting` hears the owner's pid
 * on each wait. Release it with `releaseInstallLock`.
 * @param {string} lockDir @param {(owner: number) => void} [waiting]
 */
export async function acquireInstallLock(lockDir, waiting) {
  const deadline = Date.now() + 20 * MINUTE;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    } catch {
      // The owner is between mkdir and writing its pid, or just released the lock.
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for another install to release ${lockDir}. If no install is running, run: rm -rf '${lockDir}'`,
      );
    }
    if (owner) waiting?.(owner);
    await sleep(2000);
  }
}

/** @param {string} lockDir */
export function releaseInstallLock(lockDir) {
  rmSync(lockDir, { recursive: true, force: true });
}
