// git, run the one way Redline runs it: bounded in time and output, never asking for credentials,
// taking no optional locks, and with any file system monitor the repository's config names
// switched off, so that no command of the repository's own runs because Redline asked git something.

import { execFile } from 'child_process';

export interface GitLimits {
  readonly timeoutMs: number;
  readonly maxBuffer: number;
}

/** git's stdout, or a rejection carrying its stderr. */
export function runGitProcess(
  args: readonly string[],
  cwd: string,
  { timeoutMs, maxBuffer }: GitLimits,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', ...args],
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer,
        windowsHide: true,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      },
      (error, stdout, stderr) =>
        error ? reject(Object.assign(error, { stderr: String(stderr) })) : resolve(String(stdout)),
    );
  });
}
