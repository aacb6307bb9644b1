// The processes above the MCP server, from the process table each platform gives: on Windows,
// PowerShell's CIM query (wmic is gone), in the format WINDOWS_PROCESS_TABLE prints.

import {
  ancestorsOf,
  parentsFrom,
  processAncestors,
  WINDOWS_PROCESS_TABLE,
} from '../../mcp-server/src/processAncestry';

/**
 * What WINDOWS_PROCESS_TABLE prints, as its format is: one "<pid> <parent pid>" line per process,
 * CRLF line ends, and PowerShell's blank line at the end. The chain is a VS Code terminal's:
 * node.exe (the server) ← claude.exe ← pwsh.exe (the terminal's shell) ← Code.exe ← explorer.exe,
 * whose parent has exited, and System Idle (0) and System (4) at the top.
 */
const WINDOWS_TABLE = [
  '0 0',
  '4 0',
  '1204 4',
  '5512 9999',
  '7420 5512',
  '8008 7420',
  '8116 8008',
  '9320 8116',
  '10244 7420',
  '',
].join('\r\n');

it('reads the Windows process table and walks from the server to the first process whose parent is gone', () => {
  expect(WINDOWS_PROCESS_TABLE).not.toMatch(/wmic/i);
  expect(ancestorsOf(9320, parentsFrom(WINDOWS_TABLE))).toEqual([8116, 8008, 7420, 5512, 9999]);
});

it('stops at System, and at a loop a reused pid makes', () => {
  expect(ancestorsOf(1204, parentsFrom(WINDOWS_TABLE))).toEqual([4]);
  expect(ancestorsOf(1, parentsFrom('1 2\n2 3\n3 2\n'))).toEqual([2, 3]);
});

it('reads `ps -A -o pid=,ppid=` the same way, skipping what is not a pair of numbers', () => {
  const table = '    1     0\n  300     1\n  412   300\n  500   412\nnot a line\n\n';
  expect(ancestorsOf(500, parentsFrom(table))).toEqual([412, 300]);
});

it('finds its own parent on this machine', () => {
  expect(processAncestors()[0]).toBe(process.ppid);
});
