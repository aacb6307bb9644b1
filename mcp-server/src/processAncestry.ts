// The processes above this one: the shell of the terminal the assistant was started in is among
// them, and a window's discovery file names the shells of its terminals (shared/discovery.ts).

import { execFileSync } from 'child_process';
import * as fs from 'fs';

const MAX_DEPTH = 64;

/**
 * Parent, grandparent and so on, up to init. Linux reads /proc; macOS and the BSDs ask `ps` once;
 * elsewhere (Windows) it is empty, and the terminal's REDLINE_IPC_PATH and the folder decide.
 */
export function processAncestors(pid = process.pid, platform: NodeJS.Platform = process.platform): number[] {
  try {
    const parentOf = platform === 'linux' ? procParent : platform === 'win32' ? undefined : psParents();
    if (!parentOf) return [];
    const ancestors: number[] = [];
    for (let current = parentOf(pid); current !== undefined && current > 1 && ancestors.length < MAX_DEPTH; current = parentOf(current)) {
      if (ancestors.includes(current)) break;
      ancestors.push(current);
    }
    return ancestors;
  } catch {
    return [];
  }
}

function procParent(pid: number): number | undefined {
  // The command name, in parentheses, may hold spaces and parentheses: the fields after the last ')' are fixed.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isSafeInteger(ppid) ? ppid : undefined;
}

function psParents(): (pid: number) => number | undefined {
  const parents = new Map<number, number>();
  const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 });
  for (const line of table.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (Number.isSafeInteger(pid) && Number.isSafeInteger(ppid)) parents.set(pid, ppid);
  }
  return (pid) => parents.get(pid);
}
