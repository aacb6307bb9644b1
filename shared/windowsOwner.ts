// Who owns a file on Windows, where Node's stat gives no owner: PowerShell's Get-Acl, once per file
// version (remembered by path and change time), and only for files outside the user's profile,
// which is the user's own by its ACL. The situation of git's CVE-2022-24765: a folder under C:\ may
// be made by any signed-in user, and a repository or a worktree record there is not the user's.

import { execFileSync } from 'child_process';

const MAX_REMEMBERED = 256;
const remembered = new Map<string, { readonly ctimeMs: number; readonly owner: string | undefined }>();
let currentUser: string | undefined | null = null;

/** `DOMAIN\user` of this process, or undefined when Windows would not say. */
export function windowsUser(): string | undefined {
  if (currentUser === null) currentUser = run('whoami', []);
  return currentUser;
}

/** The owner of `file` (`DOMAIN\user`, `BUILTIN\Administrators`), or undefined when Get-Acl would not say. */
export function windowsOwnerOf(file: string, ctimeMs: number): string | undefined {
  const known = remembered.get(file);
  if (known?.ctimeMs === ctimeMs) return known.owner;
  const owner = run(
    'powershell.exe',
    ['-NoProfile', '-NonInteractive', '-Command', '(Get-Acl -LiteralPath $env:REDLINE_OWNER_OF).Owner'],
    {
      REDLINE_OWNER_OF: file,
    },
  );
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(file, { ctimeMs, owner });
  return owner;
}

/** One line of a program's output; the path goes in the environment, so no quoting can change the command. */
function run(program: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string | undefined {
  try {
    const output = execFileSync(program, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 15_000,
      windowsHide: true,
      env: { ...process.env, ...env },
    }).trim();
    return output === '' || output.includes('\n') ? undefined : output;
  } catch {
    return undefined;
  }
}
