// The review body's page: the element inside #review that holds the review shown, one slice of
// HTML per element (sliceBlocks.ts). A slice is parsed while it is out of the document and joins
// the page in one step: blocks added one by one to a live page cost time in proportion to the
// blocks already there, and a long page then took minutes to arrive. A new review gets a new
// page; a large old one is hidden in the same step and taken apart a few blocks per task, because
// removing nodes costs time in proportion to their number and the next review would wait for it.
// A small old page goes at once. (A retired page is out of the layout: review.css.)

import { prepareSlice, SLICE_CLASS } from './sliceBlocks';

/** An old page with more HTML than this is taken apart in the background; a smaller one is removed at once. */
const RETIRE_ABOVE_HTML = 64 * 1024;
/** Work per task while taking pages apart: the panel keeps painting and answering in between. */
const TEARDOWN_BUDGET_MS = 4;
/** A node with more children than this is taken apart a child at a time, not removed in one go. */
const TEARDOWN_WHOLE_NODES = 32;
export const PAGE_CLASS = 'redline-page';
export const RETIRED_CLASS = 'redline-page-retired';

export class ReviewPages {
  private page: HTMLElement | undefined;
  /** HTML added to the current page so far. */
  private size = 0;
  /** Old pages still being taken apart, oldest first. */
  private readonly retired: HTMLElement[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private nothingShown: DocumentFragment | undefined;

  constructor(private readonly body: HTMLElement) {}

  /** The page shown, made on first use. */
  get current(): HTMLElement {
    if (!this.page) {
      this.page = document.createElement('div');
      this.page.className = PAGE_CLASS;
      this.body.prepend(this.page);
    }
    return this.page;
  }

  /** What searches for the review's blocks look in: the page shown, never a retired page (nothing, when no page is shown). */
  get shown(): ParentNode {
    return this.page ?? (this.nothingShown ??= document.createDocumentFragment());
  }

  /** The slices of the page shown, in order. */
  slices(): HTMLElement[] {
    const children = this.page ? Array.from(this.page.children) : [];
    return children.filter((child): child is HTMLElement => child.classList.contains(SLICE_CLASS));
  }

  /** Puts a new, empty page in place of the one shown; nothing of the old page is parsed, laid out or diffed. */
  replace(): HTMLElement {
    this.retire();
    return this.current;
  }

  /** Adds `html` at the end of the page shown, as a slice of its own, and returns the slice. */
  add(html: string): HTMLElement {
    const page = this.current;
    const slice = prepareSlice(html, page.lastElementChild);
    page.append(slice);
    this.size += html.length;
    return slice;
  }

  /** Nothing is shown. */
  clear(): void {
    this.retire();
  }

  private retire(): void {
    const old = this.page;
    this.page = undefined;
    if (!old) return;
    if (this.size <= RETIRE_ABOVE_HTML) {
      old.remove();
    } else {
      // One class on one element: the browser neither lays out nor paints what is inside it, and
      // nothing in it can be focused or clicked. (`inert` would restyle every node in it.)
      old.classList.replace(PAGE_CLASS, RETIRED_CLASS);
      this.retired.push(old);
      this.schedule();
    }
    this.size = 0;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.retired.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const started = performance.now();
      while (this.retired.length > 0 && performance.now() - started < TEARDOWN_BUDGET_MS) {
        let last = this.retired[0].lastChild;
        if (!last) {
          this.retired.shift()!.remove();
          continue;
        }
        // A slice, a group of blocks or a long list: the last of its parts, down to one small enough.
        while (last.childNodes.length > TEARDOWN_WHOLE_NODES) last = last.lastChild!;
        last.remove();
      }
      this.schedule();
    }, 0);
  }
}
