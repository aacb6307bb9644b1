// Claude Code keeps its MCP servers in its own files, which its CLI edits: Redline runs
// `claude mcp add --scope user` rather than touching them. The argv is shared with the snippet
// (assistantSetup.ts), so what the user is asked to run and what Redline runs are the same.

import { execFile } from 'child_process';
import { SERVER_NAME, findOnPath, type NodeCommand, type RuntimeProbe } from './serverLaunch';

/** `claude mcp add` for all the user's projects, without the leading `claude`. */
export function claudeAddArgs(serverPath: string, node: NodeCommand): string[] {
  const envFlags = Object.entries(node.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  // `-e` takes several values and would swallow the server name, and Windows PowerShell 5.1
  // drops a bare `--`: so `-e` goes before `--scope`, which ends it, and no `--` is needed
  // because nothing in the server's argv starts with a dash.
  return ['mcp', 'add', ...envFlags, '--scope', 'user', SERVER_NAME, node.command, serverPath];
}

export const CLAUDE_REMOVE_ARGS: readonly string[] = ['mcp', 'remove', '--scope', 'user', SERVER_NAME];

/**
 * The `claude` executable Redline can run itself. On Windows only `claude.exe` (the native
 * installer's) counts: npm's `claude.cmd` needs a shell, and a shell would re-read the paths.
 */
export function findClaude(probe: RuntimeProbe): string | undefined {
  return findOnPath('claude', probe);
}

export interface ClaudeResult {
  readonly ok: boolean;
  /** What it printed, for the user when it failed. */
  readonly output: string;
}

/** Runs `claude` with `args`, no shell; never rejects. */
export function runClaude(claude: string, args: readonly string[], timeoutMs = 60_000): Promise<ClaudeResult> {
  return new Promise((resolve) => {
    execFile(claude, [...args], { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`.trim();
      resolve({ ok: !error, output: output || (error ? String(error.message) : '') });
    });
  });
}
