// The prefixes the user chose by locating one file of an imported log (pathMapping.ts's rule 2),
// remembered for the workspace: as Microsoft's SARIF Viewer keeps the base it worked out from a
// located file (the log's path and the local one, their common end taken off) and applies it to
// every later path, a later log from the same machine maps the same way, in this session and the next.
// Kept in the workspace's state, which is the editor's and read as untrusted all the same.

import { z } from 'zod';
import type { PathPrefix } from '../../../shared/exchange/pathMapping';

/** What the state is read and written through: vscode's Memento, or a map in tests. */
export interface PrefixState {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'redline.sarifLocatedPrefixes';
/** Prefixes kept, the newest first. */
export const MAX_LOCATED_PREFIXES = 20;

const Stored = z.array(z.object({ from: z.string().min(1).max(4096), to: z.string().min(1).max(4096) })).max(100);

export class LocatedPrefixes {
  constructor(private readonly state: PrefixState) {}

  /** The prefixes kept, newest first; nothing when what is stored is not a list of them. */
  all(): PathPrefix[] {
    const stored = Stored.safeParse(this.state.get(KEY) ?? []);
    return stored.success ? stored.data.slice(0, MAX_LOCATED_PREFIXES) : [];
  }

  /** Keeps `prefix` first; one the user chose before for the same prefix of the log's paths is replaced. */
  async remember(prefix: PathPrefix): Promise<void> {
    const kept = [prefix, ...this.all().filter((known) => known.from !== prefix.from)].slice(0, MAX_LOCATED_PREFIXES);
    await this.state.update(KEY, kept);
  }
}
