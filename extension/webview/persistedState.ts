// What survives a reload of the panel's document (a hidden panel, a restart through the
// serializer): the revision shown and where it was scrolled, so the same review opens where it was.
// The place is the block at the top of the screen (its source line) as well as the offset: a long
// page's blocks are laid out only near the screen, so the offset alone lands elsewhere once the
// blocks above it have their real heights.

import { scrollSteadily, userMovedSince } from './steadyScroll';

export interface PersistedState {
  readonly revision: number;
  readonly scrollY: number;
  /** The top-level block at the top of the screen: its `data-line`, and its top in the viewport. */
  readonly line?: number;
  readonly lineTop?: number;
}

/** Where the panel is scrolled to. */
export type Place = Omit<PersistedState, 'revision'> & { readonly scrollX: number };

/** The part of the webview API that keeps state across reloads. */
export interface StateStore {
  getState(): unknown;
  setState(state: PersistedState): void;
}

const BLOCK = '.redline-group > [data-line]';

/** What the previous document saved, if it is well formed (it was written by an older version, maybe). */
export function readState(store: StateStore): PersistedState | undefined {
  const state = store.getState();
  if (typeof state !== 'object' || state === null) return undefined;
  const { revision, scrollY, line, lineTop } = state as Partial<Record<keyof PersistedState, unknown>>;
  if (typeof revision !== 'number' || typeof scrollY !== 'number') return undefined;
  return typeof line === 'number' && typeof lineTop === 'number'
    ? { revision, scrollY, line, lineTop }
    : { revision, scrollY };
}

/** Where the panel is now, with the block at the top of `review`'s part of the screen. */
export function currentPlace(review: HTMLElement): Place {
  const place = { scrollX: window.scrollX, scrollY: window.scrollY };
  const box = review.getBoundingClientRect();
  const toolbar = document.getElementById('toolbar')?.getBoundingClientRect().bottom ?? 0;
  const x = box.left + Math.min(box.width / 3, 160);
  // The first block under the toolbar: a point may fall in a margin between two.
  for (let y = Math.max(box.top, toolbar) + 2; y < Math.min(box.bottom, window.innerHeight); y += 12) {
    const block = document.elementFromPoint(x, y)?.closest<HTMLElement>(BLOCK);
    const line = Number(block?.dataset.line);
    if (block && Number.isInteger(line)) return { ...place, line, lineTop: block.getBoundingClientRect().top };
  }
  return place;
}

/**
 * Where each render of the panel opens. The previous document's place is used once, by the first
 * render, and only if that render shows the same revision (another review's offset would land the
 * user somewhere meaningless); a long page is moved there again once whole, unless the user moved.
 */
export class RenderPlaces {
  private restored: PersistedState | undefined;
  /** Whether the user moved since the page being shown began to arrive. */
  private moved = userMovedSince();

  constructor(store: StateStore) {
    this.restored = readState(store);
  }

  /** Where a render of `revision` opens; a preview keeps the saved place for the whole review that follows it. */
  opening(revision: number, preview: boolean): Place {
    this.moved = userMovedSince();
    const restored = this.restored;
    if (!preview) this.restored = undefined;
    if (!restored) return { scrollX: window.scrollX, scrollY: window.scrollY };
    const { revision: saved, ...place } = restored;
    return saved === revision ? { ...place, scrollX: window.scrollX } : { scrollX: window.scrollX, scrollY: 0 };
  }

  /** The page is whole: a saved place further down than its first slice reached is reachable now. */
  whole(place: Place, page: ParentNode): void {
    if (!this.moved()) goTo(place, page);
  }

  /** Nothing is shown: no saved place applies any more. */
  forget(): void {
    this.restored = undefined;
  }
}

/** Scrolls to `place`: its block back where it was when `page` holds it, else the offset. */
export function goTo(place: Place, page: ParentNode): void {
  const block = place.line === undefined ? null : page.querySelector(`${BLOCK}[data-line="${place.line}"]`);
  if (!block) {
    window.scrollTo(place.scrollX, place.scrollY);
    return;
  }
  // The groups above it keep their estimated heights until they near the screen: the block's box,
  // not the offset, says where to be, and it is held there while they settle.
  window.scrollTo(place.scrollX, window.scrollY);
  scrollSteadily(block, () => place.lineTop ?? 0);
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
