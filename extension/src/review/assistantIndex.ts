// Which folder keeps which assistant's review. The window's first assistant keeps the folders
// Redline has always used (reviews/ and conversation/ in the storage folder), so a window with one
// assistant looks as it did; each further assistant gets assistants/<slug>/. The list is one small
// file, replaced atomically, and untrusted when read: a bad one is moved aside and forgotten.

import { createHash } from 'crypto';
import * as path from 'path';
import { z } from 'zod';
import { MAX_ASSISTANT_CHARS } from '../../../shared/protocol';
import { replaceFile } from '../../../shared/atomicFile';
import { silentLogger, type Logger } from '../../../shared/logger';
import { withFolderLock } from './folderLock';
import { describeProblem } from './storedState';
import { readValidFile } from './validatedFile';

/** More assistants than this in one window are refused: each one is a review kept on disk. */
export const MAX_ASSISTANTS = 16;

export const INDEX_FILE = 'assistants.json';
/** The first assistant's folders are the storage folder's own reviews/ and conversation/. */
export const PRIMARY_DIR = '';

const Entry = z.object({
  name: z.string().min(1).max(MAX_ASSISTANT_CHARS),
  // Never a path of the file's choosing: only the primary folder, or one this module named.
  dir: z.union([z.literal(PRIMARY_DIR), z.string().regex(/^assistants\/[a-z0-9-]{1,64}$/)]),
});
export type AssistantEntry = z.infer<typeof Entry>;

const IndexFile = z.object({ version: z.literal(1), assistants: z.array(Entry).max(MAX_ASSISTANTS) });

/** Where one assistant's review and conversation are kept. */
export interface AssistantFolders {
  readonly reviews: string;
  readonly conversation: string;
}

export class AssistantIndex {
  private constructor(
    private readonly root: string | undefined,
    private entries: readonly AssistantEntry[],
    private readonly log: Logger,
  ) {}

  /** Never fails because of what is stored: a bad file is moved aside and the window starts without it. */
  static async load(root: string, log: Logger): Promise<AssistantIndex> {
    return new AssistantIndex(root, await readIndex(root, log), log);
  }

  static inMemory(): AssistantIndex {
    return new AssistantIndex(undefined, [], silentLogger);
  }

  get all(): readonly AssistantEntry[] {
    return this.entries;
  }

  folders(dir: string): AssistantFolders | undefined {
    if (!this.root) return undefined;
    const base = path.join(this.root, dir);
    return { reviews: path.join(base, 'reviews'), conversation: path.join(base, 'conversation') };
  }

  /** A folder for a new assistant: readable, and unique because it ends in a hash of the name. */
  static dirFor(name: string): string {
    const readable =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'assistant';
    return `assistants/${readable}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
  }

  /**
   * Adds an assistant and resolves once the list is on disk; throws (nothing added) if it is not.
   * Another window on the same folder may have added one since: the list is read again under the
   * folder's lock, so that neither window's assistant drops out of it.
   */
  async add(entry: AssistantEntry): Promise<void> {
    const root = this.root;
    if (!root) {
      this.entries = [...this.entries.filter((existing) => existing.name !== entry.name), entry];
      return;
    }
    const target = path.join(root, INDEX_FILE);
    try {
      await withFolderLock(root, async (hold) => {
        const onDisk = (await readIndex(root, this.log)).filter(
          (theirs) => !this.entries.some((ours) => ours.name === theirs.name || ours.dir === theirs.dir),
        );
        const entries = [...this.entries, ...onDisk].filter(
          (existing) => existing.name !== entry.name && existing.dir !== entry.dir,
        );
        if (entries.length >= MAX_ASSISTANTS)
          throw new Error(`this folder already keeps the reviews of ${MAX_ASSISTANTS} assistants`);
        await replaceFile(target, JSON.stringify({ version: 1, assistants: [...entries, entry] }), {
          beforeRename: () => hold.assertHeld(),
        });
        this.entries = [...entries, entry];
      });
    } catch (error) {
      this.log.warn('Redline could not save its list of assistants.', { file: target, error: describeProblem(error) });
      throw new Error(
        `Redline could not save its list of assistants (${describeProblem(error)}); check that ${root} is writable.`,
      );
    }
  }
}

async function readIndex(root: string, log: Logger): Promise<AssistantEntry[]> {
  const stored = await readValidFile(path.join(root, INDEX_FILE), {
    schema: IndexFile,
    maxBytes: 64 * 1024,
    what: 'list of assistants',
    log,
    check: ({ assistants }) => {
      const names = new Set(assistants.map((entry) => entry.name));
      const dirs = new Set(assistants.map((entry) => entry.dir));
      return (
        (names.size === assistants.length && dirs.size === assistants.length) || 'a name or a folder is listed twice'
      );
    },
  });
  return stored?.assistants ?? [];
}
