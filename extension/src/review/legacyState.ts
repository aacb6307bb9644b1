// Reviews as Redline kept them before they had files: one version 1 value in workspace state.
// Read once into the file layout, then the key is cleared (see ReviewStore.open).

import { describeProblem, LegacyState, type StoredCurrent, type StoredReview } from './storedState';

/** The workspace-state key of the version 1 store. */
export const STORAGE_KEY = 'redline.reviews';

/** The subset of VS Code's Memento that migration needs. */
export interface LegacyStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const hasLegacyState = (legacy: LegacyStorage): boolean => legacy.get<unknown>(STORAGE_KEY) !== undefined;

/** The old state as the files would hold it (history newest first); undefined, with a warning, when it does not validate. */
export function readLegacyState(legacy: LegacyStorage, log: (message: string) => void): { current: StoredCurrent; history: StoredReview[] } | undefined {
  const parsed = LegacyState.safeParse(legacy.get<unknown>(STORAGE_KEY));
  if (!parsed.success) {
    log(`Redline could not read the reviews an earlier version kept in workspace state (${describeProblem(parsed.error)}); it starts without them.`);
    return undefined;
  }
  const { revision, current, history } = parsed.data;
  const strip = ({ revision, title, markdown, cwd, updatedAt }: StoredReview): StoredReview => ({ revision, title, markdown, cwd, updatedAt });
  return {
    current: { version: 2, revision: Math.max(revision, current?.revision ?? 0), current: current ? strip(current) : null },
    history: history
      .filter((review) => review.revision !== current?.revision)
      .map(strip)
      .sort((a, b) => b.revision - a.revision),
  };
}

export async function clearLegacyState(legacy: LegacyStorage, log: (message: string) => void): Promise<void> {
  try {
    await legacy.update(STORAGE_KEY, undefined);
  } catch (error) {
    log(`Redline could not clear the old reviews in workspace state (${describeProblem(error)}).`);
  }
}
