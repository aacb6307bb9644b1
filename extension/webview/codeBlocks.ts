// Code blocks that scroll sideways are reachable from the keyboard: a block wider than the panel
// (a narrow column, a long line) can otherwise be scrolled only with the mouse (axe-core's
// scrollable-region-focusable). Every block is a tab stop, as on GitHub, since which ones scroll
// changes with the panel's width.

/** Makes the code blocks painted since the last call focusable. */
export function makeCodeBlocksFocusable(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('pre:not([tabindex])').forEach((block) => (block.tabIndex = 0));
}
