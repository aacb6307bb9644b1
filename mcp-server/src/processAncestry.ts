// The processes above this one: the shell of the terminal the assistant was started in is among
// them, and a window's discovery file names the shells of its terminals (shared/discovery.ts).

import { execFileSync } from 'child_process';
import * as fs from 'fs';

const MAX_DEPTH = 64;

/**
 * The process table as "<pid> <parent pid>" lines, from PowerShell's CIM query: `wmic`, which
 * used to give it, is gone from recent Windows, and Get-Process has no parent in Windows PowerShell 5.
 */
export const WINDOWS_PROCESS_TABLE =
  'Get-CimInstance -ClassName Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId)" }';

/**
 * Parent, grandparent and so on, up to init. Linux reads /proc; Windows asks PowerShell for the
 * process table once, and macOS and the BSDs ask `ps`. Empty when that fails: then the terminal's
 * REDLINE_IPC_PATH and the folder decide.
 */
export function processAncestors(pid = process.pid, platform: NodeJS.Platform = process.platform): number[] {
  try {
    return ancestorsOf(
      pid,
      platform === 'linux' ? procParent : parentsFrom(platform === 'win32' ? windowsProcessTable() : psProcessTable()),
    );
  } catch {
    return [];
  }
}

/** The chain of parents of `pid`, stopping at init (or Windows' System), a loop (a reused pid) or MAX_DEPTH. */
export function ancestorsOf(pid: number, parentOf: (pid: number) => number | undefined): number[] {
  const ancestors: number[] = [];
  for (
    let current = parentOf(pid);
    current !== undefined && current > 1 && ancestors.length < MAX_DEPTH;
    current = parentOf(current)
  ) {
    if (ancestors.includes(current)) break;
    ancestors.push(current);
  }
  return ancestors;
}

function procParent(pid: number): number | undefined {
  // The command name, in parentheses, may hold spaces and parentheses: the fields after the last ')' are fixed.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isSafeInteger(ppid) ? ppid : undefined;
}

function psProcessTable(): string {
  return execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 });
}

function windowsProcessTable(): string {
  // Starting PowerShell is slow, so the table is read once per server.
  return execFileSync('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', WINDOWS_PROCESS_TABLE], {
    encoding: 'utf8',
    timeout: 10_000,
    windowsHide: true,
  });
}

/** Each process's parent, from "<pid> <parent pid>" lines (`ps`, or WINDOWS_PROCESS_TABLE); other lines are skipped. */
export function parentsFrom(table: string): (pid: number) => number | undefined {
  const parents = new Map<number, number>();
  for (const line of table.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 2) continue;
    const [pid, ppid] = fields.map(Number);
    if (Number.isSafeInteger(pid) && Number.isSafeInteger(ppid)) parents.set(pid, ppid);
  }
  return (pid) => parents.get(pid);
}
