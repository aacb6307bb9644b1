// The review body's page: the element inside #review that holds the review shown. A new review gets
// a new page; a large old one is hidden in the same step and taken apart a few blocks per task,
// because removing nodes costs time in proportion to their number and the next review would wait
// for it. A small old page goes at once. (A retired page is out of the layout: review.css.)

/** An old page with more HTML than this is taken apart in the background; a smaller one is removed at once. */
const RETIRE_ABOVE_HTML = 64 * 1024;
/** Work per task while taking pages apart: the panel keeps painting and answering in between. */
const TEARDOWN_BUDGET_MS = 4;
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

  /** What searches for the review's blocks look in: the page shown, never a retired one (nothing, when no page is shown). */
  get shown(): ParentNode {
    return this.page ?? (this.nothingShown ??= document.createDocumentFragment());
  }

  /** Puts a new, empty page in place of the one shown; nothing of the old page is parsed, laid out or diffed. */
  replace(): HTMLElement {
    this.retire();
    return this.current;
  }

  /** Adds `html` at the end of the page shown. */
  add(html: string): void {
    this.current.insertAdjacentHTML('beforeend', html);
    this.size += html.length;
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
        const old = this.retired[0];
        const last = old.lastChild;
        if (last) last.remove();
        else this.retired.shift()!.remove();
      }
      this.schedule();
    }, 0);
  }
}
