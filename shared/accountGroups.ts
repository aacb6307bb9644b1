// Whether the user's own group is private to them (Debian's and Ubuntu's user private groups,
// whose umask 002 makes every repository group-writable): then its write bit is the user's alone.
// The local account files and the system's name service (getent: LDAP, SSSD, NIS) must both say
// so, since a directory service can add members the files do not list. Asked once per process.

import { execFileSync } from 'child_process';
import * as fs from 'fs';

/** Where accounts are learnt: this machine by default; tests stand in for it. */
export interface AccountSources {
  /** A local account file's text (/etc/passwd, /etc/group); throws when it cannot be read. */
  readFile(file: string): string;
  /**
   * `getent`'s lines for a database (all of it, or one key): [] when the key is unknown,
   * undefined when the system has no getent (then the files are all there is); throws on failure.
   */
  getent(database: 'group' | 'passwd', key?: string): string[] | undefined;
}

/** An account file's lines as fields: name, password, id, group (passwd) or members (group). */
const entries = (lines: readonly string[]) =>
  lines.map((line) => line.split(':')).filter((fields) => fields.length >= 4 && /^\d+$/.test(fields[2]));

/**
 * `gid` if it is a private group of `uid`: named after the user, no other account has it as its
 * primary group, and no one else is listed in it, by the local files and by the name service
 * alike. Undefined when any source says otherwise or cannot be read.
 */
export function privateGroupOf(
  uid: number,
  gid: number,
  sources: AccountSources = systemAccountSources(),
): number | undefined {
  try {
    const passwd = entries(sources.readFile('/etc/passwd').split('\n'));
    const own = passwd.find((fields) => Number(fields[2]) === uid)?.[0];
    if (
      own === undefined ||
      !onlyMember({ own, uid, gid }, { passwd, groups: entries(sources.readFile('/etc/group').split('\n')) })
    )
      return undefined;
    const served = sources.getent('group', String(gid));
    if (served === undefined) return gid;
    // The name service's whole list of accounts, as far as it lists them (a directory that does not
    // enumerate its users shows only the local ones; its group must still be named after the user).
    const accounts = sources.getent('passwd');
    return onlyMember({ own, uid, gid }, { passwd: entries(accounts ?? []), groups: entries(served) })
      ? gid
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `own` (of `uid`) is the only account in `gid`, and the group is named after it, by one source's lists. */
function onlyMember(
  { own, uid, gid }: { readonly own: string; readonly uid: number; readonly gid: number },
  { passwd, groups }: { readonly passwd: string[][]; readonly groups: string[][] },
): boolean {
  if (passwd.some((fields) => Number(fields[2]) !== uid && Number(fields[3]) === gid)) return false;
  const group = groups.filter((fields) => Number(fields[2]) === gid);
  if (group.length !== 1 || group[0][0] !== own) return false;
  return group[0][3].split(',').every((member) => member.trim() === '' || member.trim() === own);
}

export function systemAccountSources(): AccountSources {
  return {
    readFile: (file) => fs.readFileSync(file, 'utf8'),
    getent: (database, key) => {
      try {
        return execFileSync('getent', key === undefined ? [database] : [database, key], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 10_000,
          maxBuffer: 32 * 1024 * 1024,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        }).split('\n');
      } catch (error) {
        const failure = error as NodeJS.ErrnoException & { status?: number };
        if (failure.code === 'ENOENT') return undefined;
        // 2: no such key.
        if (failure.status === 2) return [];
        throw error;
      }
    },
  };
}

/** The answer for this process's user, found once: every worktree lookup asks. */
let answered: { uid: number; gid: number; answer: number | undefined } | undefined;

export function cachedPrivateGroup(uid: number, gid: number): number | undefined {
  if (answered?.uid !== uid || answered.gid !== gid) answered = { uid, gid, answer: privateGroupOf(uid, gid) };
  return answered.answer;
}
