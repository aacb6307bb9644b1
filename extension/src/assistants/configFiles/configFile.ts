// Reads an assistant's config file, computes Redline's change to it, and writes that change
// safely: a backup beside it first, the file's own mode kept, a symlinked file written through its
// link, and the file replaced crash-safely (shared/atomicFile.ts) so that the assistant never reads
// half a file.
// No `vscode` here: configWriteFlow.ts shows the change and asks before `writeConfigChange`.

import { constants, promises as fs } from 'fs';
import * as path from 'path';
import { replaceFile, syncFile } from '../../../../shared/atomicFile';
import type { ConfigEditResult, ConfigOperation } from './configEdit';
import type { ConfigTarget } from './configTargets';
import { editJsonConfig } from './jsonConfig';
import { editTomlConfig } from './tomlConfig';

export interface ConfigChange {
  readonly target: ConfigTarget;
  readonly operation: ConfigOperation;
  /** The file's text as it was read; undefined when it does not exist. */
  readonly before: string | undefined;
  readonly after: string;
  /**
   * The file that is read and written: the target's own file, or where its symlink leads (a
   * dotfiles repository, or anywhere else). The consent names it, and a write goes only there.
   */
  readonly realFile: string;
}

export type ConfigPlan =
  | { readonly kind: 'change'; readonly change: ConfigChange }
  /** Already as wanted: the entry is there (to add) or absent (to remove). */
  | { readonly kind: 'unchanged'; readonly target: ConfigTarget; readonly operation: ConfigOperation }
  /** The file cannot be edited safely; `message` says why and that nothing was written. */
  | { readonly kind: 'invalid'; readonly target: ConfigTarget; readonly message: string };

export interface WrittenChange {
  /** The file written: the link's target when the config file is a symlink. */
  readonly file: string;
  /** The copy of the file as it was; undefined when there was no file. */
  readonly backup?: string;
}

/** A config file that cannot be written as planned; its message is meant for the user. */
export class ConfigFileError extends Error {}

export async function planConfigChange(target: ConfigTarget, operation: ConfigOperation): Promise<ConfigPlan> {
  let before: string | undefined;
  let real: string;
  try {
    real = await realFile(target.file);
    before = await readConfig(real);
  } catch (error) {
    return {
      kind: 'invalid',
      target,
      message: `${target.displayPath} could not be read (${(error as Error).message}); nothing was written.`,
    };
  }
  let result: ConfigEditResult;
  try {
    const edit = { entryPath: target.entryPath, operation };
    result =
      target.format === 'toml'
        ? editTomlConfig(before, edit)
        : editJsonConfig(before, { ...edit, reader: target.jsonReader });
  } catch (error) {
    // The editors check their own output and throw rather than hand over a wrong file.
    return {
      kind: 'invalid',
      target,
      message: `Redline could not prepare the change to ${target.displayPath} (${(error as Error)?.message ?? error}); nothing was written.`,
    };
  }
  switch (result.kind) {
    case 'unchanged':
      return { kind: 'unchanged', target, operation };
    case 'invalid':
      return {
        kind: 'invalid',
        target,
        message: `${target.displayPath} ${result.reason}; nothing was written. Fix the file, then try again.`,
      };
    case 'changed':
      return { kind: 'change', change: { target, operation, before, after: result.text, realFile: real } };
  }
}

/**
 * Writes a change planned by `planConfigChange`, unless the file changed since (the user may have
 * edited it while looking at the diff): then it throws and writes nothing.
 */
export async function writeConfigChange(change: ConfigChange, now: Date = new Date()): Promise<WrittenChange> {
  const file = await realFile(change.target.file);
  // The user agreed to change the file the consent named; a link retargeted since is not that file.
  if (file !== change.realFile) {
    throw new ConfigFileError(
      `${change.target.displayPath} now leads to ${file}, not to ${change.realFile} as when you agreed; nothing was written. Run the command again.`,
    );
  }
  const current = await readConfig(file);
  if (current !== change.before) {
    throw new ConfigFileError(
      `${change.target.displayPath} changed after Redline read it; nothing was written. Run the command again to see the change against the file as it is now.`,
    );
  }
  if (current === undefined) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    // A new file gets 0644 less the umask, as an editor would make it.
    await replaceFile(file, change.after, { mode: 0o644 });
    return { file };
  }
  const mode = (await fs.stat(file)).mode & 0o7777;
  const backup = backupName(file, now);
  // COPYFILE_EXCL: an earlier backup is never overwritten, even by two writes in the same second.
  await fs.copyFile(file, backup, constants.COPYFILE_EXCL);
  // The backup's bytes are on disk before the file they copy is replaced; its name is made durable with the replacement's.
  await syncFile(backup);
  await replaceFile(file, change.after, { mode, exactMode: true });
  return { file, backup };
}

/** `<file>.redline-backup-20250102-030405`, beside the file, in local time as the user reads it. */
export function backupName(file: string, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
  return `${file}.redline-backup-${stamp}`;
}

async function readConfig(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new ConfigFileError('it is a directory');
    throw error;
  }
}

/** A config kept in a dotfiles repository is often a symlink: renaming over it would replace the link with a copy. */
async function realFile(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw error;
  }
}
