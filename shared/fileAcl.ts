// Whether a file has a POSIX access ACL, which its mode hides: with one, the mode's group bits
// show the ACL's mask, so a grant to another user (user:mallory:rwx) looks like the group's write
// bit. Node cannot read extended attributes, so GNU ls tells (a '+' after the mode): one ls per
// file, remembered by inode and ctime, which every ACL change moves (mtime does not).

import { execFileSync } from 'child_process';

/** The part of fs.Stats that names one version of a file's metadata. */
export interface MetadataStats {
  readonly dev: number;
  readonly ino: number;
  readonly ctimeMs: number;
}

/** Files remembered at most; past it, the memory starts again. */
const MAX_REMEMBERED = 1024;
const remembered = new Map<string, { readonly ctimeMs: number; readonly acl: boolean | undefined }>();
let gnuLs: boolean | undefined;

/**
 * True when `file` (what it links to, with `follow`) has an access ACL, false when it has none,
 * undefined when this system cannot tell (no GNU ls, or ls failed).
 */
export function hasAccessAcl(file: string, stats: MetadataStats, follow: boolean): boolean | undefined {
  const key = `${follow ? 'L' : 'l'}:${stats.dev}:${stats.ino}`;
  const known = remembered.get(key);
  if (known?.ctimeMs === stats.ctimeMs) return known.acl;
  const acl = readAcl(file, follow);
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(key, { ctimeMs: stats.ctimeMs, acl });
  return acl;
}

function readAcl(file: string, follow: boolean): boolean | undefined {
  gnuLs ??= ls(['--version'])?.startsWith('ls (GNU coreutils)') ?? false;
  if (!gnuLs) return undefined;
  const mode = /^[-dlcbpsD][-rwxsStT]{9}(\S?)/.exec(ls([follow ? '-ldL' : '-ld', '--', file]) ?? '');
  // '+': an ACL; '.': an SELinux context alone; nothing: neither.
  return mode ? mode[1] === '+' : undefined;
}

function ls(args: readonly string[]): string | undefined {
  try {
    return execFileSync('ls', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    });
  } catch {
    return undefined;
  }
}
