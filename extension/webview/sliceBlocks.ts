// A slice of a review's page, made ready while it is out of the document: parsed, its top-level
// blocks put in groups of a few screens each, its code blocks made focusable, and its margins where
// groups meet set by class. Nothing here is styled or laid out until the slice joins the page. A
// long page's groups are laid out only near the screen (`content-visibility` in review.css); until
// then each keeps an estimated height. Groups, not blocks, because the browser checks each such
// element on every frame; and not whole slices, which are dozens of screens long.

import { makeCodeBlocksFocusable } from './codeBlocks';

export const SLICE_CLASS = 'redline-slice';
export const GROUP_CLASS = 'redline-group';
/**
 * On a block whose bottom margin goes: what follows continues it (a long list or paragraph cut
 * into chunks by the render), or is a heading that starts the next group, which brings its own,
 * larger gap (a group laid out on its own keeps its margins in, so the two would add up).
 */
export const JOINED_CLASS = 'redline-joined';
const CONTINUED = ['redline-list-continued', 'redline-block-continued'];
const HEADING = /^H[1-6]$/;
/** Text in a group, about: a few screens of a review. */
const GROUP_TEXT = 8 * 1024;
/** Height per character of a slice's HTML, measured over reviews of findings in the panel's font. */
const PX_PER_HTML_CHAR = 0.18;

/** `html` as a slice to add after `previous` (the page's last slice, if any). */
export function prepareSlice(html: string, previous: Element | null): HTMLElement {
  const parsed = document.createElement('div');
  parsed.insertAdjacentHTML('beforeend', html);
  makeCodeBlocksFocusable(parsed);
  const blocks = Array.from(parsed.children);
  const texts = blocks.map((block) => block.textContent?.length ?? 0);
  const pxPerText =
    (html.length * PX_PER_HTML_CHAR) /
    Math.max(
      1,
      texts.reduce((sum, text) => sum + text, 0),
    );
  const slice = document.createElement('div');
  slice.className = SLICE_CLASS;
  let above = previous?.lastElementChild?.lastElementChild ?? null;
  let group: HTMLElement | undefined;
  let text = 0;
  const close = () => group?.style.setProperty('contain-intrinsic-block-size', `auto ${Math.ceil(text * pxPerText)}px`);
  blocks.forEach((block, i) => {
    const starts = !group || text >= GROUP_TEXT;
    if (above && (CONTINUED.some((name) => block.classList.contains(name)) || (starts && HEADING.test(block.tagName))))
      above.classList.add(JOINED_CLASS);
    if (starts) {
      close();
      group = document.createElement('div');
      group.className = GROUP_CLASS;
      slice.append(group);
      text = 0;
    }
    group!.append(block);
    text += texts[i];
    above = block;
  });
  close();
  return slice;
}
