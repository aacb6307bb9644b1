// What survives a reload of the panel's document (a hidden panel, a restart through the
// serializer): the revision shown and where it was scrolled, so the same review opens where it was.

export interface PersistedState {
  readonly revision: number;
  readonly scrollY: number;
}

/** The part of the webview API that keeps state across reloads. */
export interface StateStore {
  getState(): unknown;
  setState(state: PersistedState): void;
}

/** What the previous document saved, if it is well formed (it was written by an older version, maybe). */
export function readState(store: StateStore): PersistedState | undefined {
  const state = store.getState();
  if (typeof state !== 'object' || state === null) return undefined;
  const { revision, scrollY } = state as Partial<Record<keyof PersistedState, unknown>>;
  return typeof revision === 'number' && typeof scrollY === 'number' ? { revision, scrollY } : undefined;
}

/** Calls `save` after the window scrolls, at most once a frame. */
export function saveOnScroll(save: () => void): void {
  let queued = false;
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        save();
      });
    },
    { passive: true },
  );
}
