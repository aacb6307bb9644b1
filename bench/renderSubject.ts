// Redline's renderer on one thread, as the render bench calls it. bench/run.mjs bundles this file
// once per build it measures (this checkout, and with --before another one), with its imports of
// the product resolved in that build's tree: keep the product's API that it uses here, and only here.

import { ReviewRenderer } from '../extension/src/render/reviewRenderer';

/** A render function over the workspace `root`; one renderer for all its calls, as in a window (its line counts live across renders). */
export function createRender(root: string): (markdown: string) => Promise<unknown> {
  const renderer = new ReviewRenderer(() => [root]);
  return (markdown) => renderer.renderFragment(markdown, undefined);
}
