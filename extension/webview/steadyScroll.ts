// Scrolling to a block of a long page and keeping it there. The groups of blocks around it get
// their real heights only once they near the screen (`content-visibility` in review.css), a frame
// or two after the scroll, and those above it then push it away from where it was put; so it is
// put back each frame until it stays, for a few frames at most, unless the user moves first.

/** Frames in which the block is put back, at most. */
const MAX_FRAMES = 30;
/** Frames in a row it must stay put to be settled. */
const STEADY_FRAMES = 3;

/** The user's scrolls, keys and clicks so far. */
let moves = 0;
for (const type of ['wheel', 'keydown', 'pointerdown'])
  window.addEventListener(type, () => moves++, { capture: true, passive: true });

/** Tells whether the user has scrolled, pressed a key or clicked since it was made. */
export function userMovedSince(): () => boolean {
  const at = moves;
  return () => moves !== at;
}

/** Scrolls so that `element`'s top is at `top()` in the viewport, and keeps it there while the page settles. */
export function scrollSteadily(element: Element, top: () => number): void {
  const moved = userMovedSince();
  let frames = 0;
  let steady = 0;
  const step = () => {
    if (!element.isConnected || moved()) return;
    const off = element.getBoundingClientRect().top - top();
    if (Math.abs(off) >= 1) {
      window.scrollBy(0, off);
      steady = 0;
    } else steady++;
    if (++frames < MAX_FRAMES && steady < STEADY_FRAMES) requestAnimationFrame(step);
  };
  step();
}
