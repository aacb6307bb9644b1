// Lock records as the folder lock's tests plant them: what a window of this machine writes (its
// boot and PID namespace, so that its pid is checked), or one no one here can check.

import * as fs from 'fs';
import * as os from 'os';
import { machineOfThisProcess } from '../../extension/src/review/holderProcess';

/** A pid past the kernel's largest (pid_max is at most 2^22): no process has it. */
export const DEAD_PID = 4_194_304 + 17;

/** `machine`: this one by default; `null` for a record that names none (another OS, an older Redline). */
export function lockRecord(
  pid: number,
  token: string,
  machine: string | null = machineOfThisProcess() ?? null,
): string {
  return JSON.stringify({ pid, host: os.hostname(), token, ...(machine !== null ? { machine } : {}) });
}

export function writeLockRecord(file: string, pid: number, token: string, machine?: string | null): void {
  fs.writeFileSync(file, lockRecord(pid, token, machine));
}

/** A machine that is not this one: another boot, or another PID namespace of this boot. */
export const OTHER_MACHINE = 'boot:00000000-0000-4000-8000-000000000000/pid-ns:4026531836';
