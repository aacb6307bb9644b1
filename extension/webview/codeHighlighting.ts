// Code blocks highlighted where the user reads them. The host writes every block as escaped text
// and marks those it admits with `data-highlight` (the grammar; render/codeHighlight.ts), so a page
// is shown without waiting for highlight.js. Here the marked blocks on and near the screen are
// highlighted a few per task, after the page is painted, so scrolling and typing stay responsive.
// A page's blocks are watched a slice at a time, and a slice's a group at a time (sliceBlocks.ts):
// tens of thousands of watched blocks would cost the panel time on every frame, and a block in a
// group the browser has not laid out (a long page's `content-visibility`) is never reported near,
// while the group itself, at its estimated height, is.
// The markup is highlight.js's: `hljs` before the language's class, and spans that review.css colours.

import type { HighlightCode } from '../../shared/codeGrammars';
import { HighlightCache } from './highlightCache';
import { loadHighlighter } from './highlighterScript';
import { GROUP_CLASS } from './sliceBlocks';

export const HIGHLIGHT_SELECTOR = 'code[data-highlight]';
/** Blocks within two screens above or below are highlighted before they scroll into view. */
export const NEAR_SCREEN_MARGIN = '200% 0px';
/** At most this many blocks in one task; fewer when they take long (TASK_BUDGET_MS). */
export const BLOCKS_PER_TASK = 4;
const TASK_BUDGET_MS = 8;

/** The part of IntersectionObserver this uses, so that a test can stand in for it. */
export interface NearScreenObserver {
  observe(target: Element): void;
  unobserve(target: Element): void;
  disconnect(): void;
}

export interface HighlightScheduling {
  /** Watches blocks, calling back with those that came near the screen. */
  observer(onNear: (blocks: Element[]) => void): NearScreenObserver;
  /** Runs `task` in a task of its own, after the page has had a chance to paint. */
  later(task: () => void): void;
  now(): number;
}

const browserScheduling: HighlightScheduling = {
  // The panel's own document as the root: with the implicit root (the window's top page, of
  // another origin than the webview's frame) the browser would ignore the margin.
  observer: (onNear) =>
    new IntersectionObserver(
      (entries) => onNear(entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target)),
      {
        root: document,
        rootMargin: NEAR_SCREEN_MARGIN,
      },
    ),
  later: (task) => setTimeout(task, 0),
  now: () => performance.now(),
};

export interface CodeHighlightingOptions {
  /** The review body. */
  readonly root: ParentNode;
  /** The highlighter, loaded once; when it fails, the code stays plain. */
  readonly load: () => Promise<HighlightCode>;
  /** By default, an IntersectionObserver and the browser's tasks; a test stands in for them. */
  readonly scheduling?: HighlightScheduling;
  readonly cache?: HighlightCache;
}

export class CodeHighlighting {
  private readonly root: ParentNode;
  private readonly load: () => Promise<HighlightCode>;
  private readonly scheduling: HighlightScheduling;
  private readonly cache: HighlightCache;
  private readonly observer: NearScreenObserver;
  private watched = new WeakSet<Element>();
  /** Slices watched until they near the screen, when their groups are watched in turn. */
  private regions = new WeakSet<Element>();
  /** Groups of a slice watched until they near the screen, when their blocks are highlighted. */
  private groups = new WeakSet<Element>();
  private queue: HTMLElement[] = [];
  private pending = false;
  /** Loaded when a block first nears the screen; undefined until then, and for good if it cannot be. */
  private highlighter: HighlightCode | undefined;
  private loading: Promise<void> | undefined;
  /** The highlighter could not be loaded: the code stays plain, and nothing is watched. */
  private unavailable = false;

  /**
   * For the panel's own script, while it runs: the highlighter's address and the nonce are on its
   * <script> element (`data-highlighter-src`, set by webviewHtml.ts).
   */
  static forPage(root: HTMLElement): CodeHighlighting {
    const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
    const src = script?.dataset.highlighterSrc || undefined;
    const nonce = script?.nonce ?? '';
    return new CodeHighlighting({ root, load: () => loadHighlighter(src, nonce) });
  }

  constructor({ root, load, scheduling = browserScheduling, cache = new HighlightCache() }: CodeHighlightingOptions) {
    this.root = root;
    this.load = load;
    this.scheduling = scheduling;
    this.cache = cache;
    this.observer = scheduling.observer((blocks) => this.near(blocks));
  }

  /**
   * Watches the marked blocks a paint brought; call after every part of a page is added. `page`
   * narrows the search to the page shown, so that a retired page's blocks are never watched.
   */
  update(page: ParentNode = this.root): void {
    if (this.unavailable) return;
    page.querySelectorAll<HTMLElement>(HIGHLIGHT_SELECTOR).forEach((block) => {
      if (this.watched.has(block)) return;
      this.watched.add(block);
      this.observer.observe(block);
    });
  }

  /** Watches a slice of the page: once it nears the screen, its groups are (or, without groups, its marked blocks). */
  watch(slice: Element): void {
    if (this.unavailable) return;
    this.regions.add(slice);
    this.observer.observe(slice);
  }

  /** Another page replaces this one: none of its blocks is watched or highlighted any more. */
  reset(): void {
    this.observer.disconnect();
    this.watched = new WeakSet();
    this.regions = new WeakSet();
    this.groups = new WeakSet();
    this.queue = [];
  }

  private near(targets: Element[]): void {
    for (const target of targets) {
      this.observer.unobserve(target);
      if (this.regions.has(target)) this.watchGroups(target);
      else if (this.groups.has(target)) this.queueBlocks(target);
      else this.queue.push(target as HTMLElement);
    }
    this.schedule();
  }

  private watchGroups(slice: Element): void {
    const groups = slice.querySelectorAll(`.${GROUP_CLASS}`);
    if (groups.length === 0) return this.update(slice);
    groups.forEach((group) => {
      this.groups.add(group);
      this.observer.observe(group);
    });
  }

  /** A group near the screen is a few screens of text: its marked blocks are highlighted in order. */
  private queueBlocks(group: Element): void {
    group.querySelectorAll<HTMLElement>(HIGHLIGHT_SELECTOR).forEach((block) => {
      if (this.watched.has(block)) return;
      this.watched.add(block);
      this.queue.push(block);
    });
  }

  private schedule(): void {
    if (this.pending || this.queue.length === 0) return;
    const highlighter = this.highlighter;
    if (!highlighter) {
      this.loading ??= this.load().then(
        (highlighter) => {
          this.highlighter = highlighter;
          this.schedule();
        },
        () => {
          this.unavailable = true;
          this.observer.disconnect();
          this.queue = [];
        },
      );
      return;
    }
    this.pending = true;
    this.scheduling.later(() => {
      this.pending = false;
      const started = this.scheduling.now();
      for (
        let done = 0;
        done < BLOCKS_PER_TASK &&
        this.queue.length > 0 &&
        (done === 0 || this.scheduling.now() - started < TASK_BUDGET_MS);
        done++
      ) {
        this.highlight(this.queue.shift()!, highlighter);
      }
      this.schedule();
    });
  }

  private highlight(block: HTMLElement, highlighter: HighlightCode): void {
    const language = block.getAttribute('data-highlight');
    // Gone with its page, or highlighted already.
    if (!block.isConnected || language === null) return;
    const code = block.textContent ?? '';
    let html = this.cache.get(language, code);
    if (html === undefined) {
      html = highlighter(code, language);
      if (html !== undefined) this.cache.set(language, code, html);
    }
    showHighlighted(block, html);
  }
}

/**
 * Puts highlight.js's markup in the block, as the host wrote it when it highlighted in the render;
 * a block whose grammar failed stays plain, as it did then. The markup is highlight.js's own: the
 * block's text escaped, in spans with classes only.
 */
export function showHighlighted(block: HTMLElement, html: string | undefined): void {
  block.removeAttribute('data-highlight');
  if (html === undefined) return;
  block.innerHTML = html;
  block.className = block.className ? `hljs ${block.className}` : 'hljs';
}
