// The findings in the panel: each finding's block gets its state, a "code changed" badge when its
// code is gone, an "imported" badge when its state or a reply came from a file (a SARIF log) rather
// than from the user, and buttons to resolve, accept or reopen it. A click on a finding's text shows its
// thread in the code. From the keyboard, the findings are one tab stop: the arrow keys move between
// them, Enter shows one in the code, and R, A, W and O resolve, accept, won't-fix and reopen it,
// each said to a screen reader. Everything is built with DOM calls: the CSP allows no inline script
// or style. A long page's findings are marked a few slices per task, those near the screen first.

import type { FindingMark, WebviewToHostMessage } from '../src/panel/webviewMessages';
import type { FindingState } from '../../shared/findingTerms';
import { SliceQueue } from './sliceQueue';
import { scrollSteadily } from './steadyScroll';

const ACTIONS_CLASS = 'redline-finding-actions';
const SHOWN_CLASS = 'redline-finding-shown';
const SHOWN_MS = 1600;
const OPEN_ACTIONS: ReadonlyArray<readonly [FindingState, string, string]> = [
  ['resolved', 'Resolve', 'Mark this finding resolved'],
  ['accepted', 'Accept', 'Accept this finding: it will be fixed'],
  ['wont-fix', "Won't fix", "Mark this finding won't fix"],
];
const STATE_NAMES: Record<FindingState, string> = {
  open: 'open',
  resolved: 'Resolved',
  accepted: 'Accepted',
  'wont-fix': "Won't fix",
};
/** The keys that set a finding's state, and what the screen reader hears. */
const STATE_KEYS: Record<string, readonly [FindingState, string]> = {
  r: ['resolved', 'marked resolved'],
  a: ['accepted', 'accepted'],
  w: ['wont-fix', "marked won't fix"],
  o: ['open', 'reopened'],
};
const KEY_SHORTCUTS = 'ArrowUp ArrowDown Home End Enter R A W O';

export interface FindingMarksOptions {
  /** The review body, which holds the pages. */
  readonly root: HTMLElement;
  readonly post: (message: WebviewToHostMessage) => void;
  /** Says something to a screen reader (the page's live region). */
  readonly announce: (text: string) => void;
  /**
   * Where the findings shown are: the page of the review shown, not a retired page still being
   * taken apart in `root`, whose nodes every search would otherwise walk. By default, `root`.
   */
  readonly page?: () => ParentNode;
  /** The slices of the page shown, in order (none: the page is searched whole). */
  readonly slices?: () => Element[];
}

export class FindingMarks {
  private readonly post: (message: WebviewToHostMessage) => void;
  private readonly announce: (text: string) => void;
  private readonly page: () => ParentNode;
  private readonly slices: () => Element[];
  private readonly marking = new SliceQueue({ work: (slice) => this.mark(slice), done: () => this.keepTabStop() });
  private marks = new Map<string, FindingMark>();
  /** An earlier review is shown: its findings get no marks, and clicks on them do nothing. */
  private readOnly = false;

  /** The finding that is the panel's one tab stop among them: the last one the keyboard was on. */
  private current: string | undefined;
  /** Its block, which alone has tabindex 0. */
  private tabStop: HTMLElement | undefined;
  /** A block was marked since the tab stop was last settled. */
  private marked = false;

  constructor({ root, post, announce, page = () => root, slices = () => [] }: FindingMarksOptions) {
    this.post = post;
    this.announce = announce;
    this.page = page;
    this.slices = slices;
    root.addEventListener('click', (event) => this.onClick(event));
    root.addEventListener('keydown', (event) => this.onKey(event));
    root.addEventListener('focusin', (event) => {
      const block = findingBlock(event.target);
      if (block) this.makeCurrent(block);
    });
  }

  /** New states from the host. */
  update(marks: readonly FindingMark[]): void {
    this.marks = new Map(marks.map((mark) => [mark.id, mark]));
    this.apply();
  }

  setReadOnly(readOnly: boolean): void {
    this.readOnly = readOnly;
    this.apply();
  }

  /** Marks every finding block on the page (after a paint, or new marks); unmarks those without a mark. */
  apply(): void {
    const slices = this.slices();
    this.marking.run(slices.length > 0 ? slices : [this.page() as Element]);
  }

  /** Marks the findings of a slice just added to the page. */
  added(slice: ParentNode): void {
    this.marking.add(slice);
  }

  /** Another page replaces this one: nothing queued for it is marked. */
  reset(): void {
    this.marking.clear();
  }

  private mark(scope: ParentNode): void {
    for (const block of scope.querySelectorAll<HTMLElement>('[data-finding]')) {
      const mark = this.readOnly ? undefined : this.marks.get(block.dataset.finding ?? '');
      if (mark) {
        decorate(block, mark);
        this.marked = true;
      } else if (block.classList.contains('redline-finding')) undecorate(block);
    }
  }

  /** After marking: the finding the keyboard was on stays the tab stop, or else the first one. */
  private keepTabStop(): void {
    if (!this.marked) return;
    this.marked = false;
    const stop = this.tabStop;
    if (stop?.isConnected && stop.classList.contains('redline-finding') && stop.dataset.finding === this.current)
      return;
    const page = this.page();
    const block =
      (this.current === undefined
        ? null
        : page.querySelector<HTMLElement>(`[data-finding="${CSS.escape(this.current)}"].redline-finding`)) ??
      page.querySelector<HTMLElement>('[data-finding].redline-finding');
    if (block) this.makeCurrent(block);
  }

  /** Scrolls to a finding and points it out. */
  show(id: string): void {
    const block = this.page().querySelector<HTMLElement>(`[data-finding="${CSS.escape(id)}"]`);
    if (!block) return;
    scrollSteadily(block, () => (window.innerHeight - block.getBoundingClientRect().height) / 2);
    block.classList.add(SHOWN_CLASS);
    setTimeout(() => block.classList.remove(SHOWN_CLASS), SHOWN_MS);
  }

  private blocks(): HTMLElement[] {
    return [...this.page().querySelectorAll<HTMLElement>('[data-finding].redline-finding')];
  }

  /** Roving tab stop: this finding is reached by Tab, the others by the arrow keys. */
  private makeCurrent(block: HTMLElement): void {
    this.current = block.dataset.finding;
    const before = this.tabStop;
    if (before && before !== block && before.classList.contains('redline-finding')) before.tabIndex = -1;
    this.tabStop = block;
    block.tabIndex = 0;
  }

  private onKey(event: KeyboardEvent): void {
    // Only on the finding itself: its buttons and links keep their own keys.
    const block = findingBlock(event.target);
    if (this.readOnly || !block || block !== event.target || event.altKey || event.ctrlKey || event.metaKey) return;
    const id = block.dataset.finding!;
    const blocks = this.blocks();
    const index = blocks.indexOf(block);
    const where = `Finding ${index + 1} of ${blocks.length}`;
    const move = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: blocks.length - 1 }[event.key];
    const stateKey = STATE_KEYS[event.key.toLowerCase()];
    if (move !== undefined) {
      const target = blocks[Math.max(0, Math.min(blocks.length - 1, move))];
      target.focus();
      target.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      this.post({ type: 'revealFinding', id });
      this.announce(`${where}: shown in the code.`);
    } else if (stateKey && !event.shiftKey) {
      this.post({ type: 'setFindingState', id, state: stateKey[0] });
      this.announce(`${where} ${stateKey[1]}.`);
    } else return;
    event.preventDefault();
  }

  private onClick(event: MouseEvent): void {
    if (this.readOnly) return;
    const target = event.target instanceof Element ? event.target : null;
    const apply = target?.closest<HTMLButtonElement>('button.redline-apply');
    if (apply?.dataset.applyFinding && apply.dataset.applyIndex) {
      this.post({ type: 'applySuggestion', id: apply.dataset.applyFinding, index: Number(apply.dataset.applyIndex) });
      return;
    }
    const button = target?.closest<HTMLButtonElement>(`.${ACTIONS_CLASS} button`);
    const block = target?.closest<HTMLElement>('[data-finding]');
    if (!block?.dataset.finding) return;
    if (button?.dataset.state) {
      this.post({ type: 'setFindingState', id: block.dataset.finding, state: button.dataset.state as FindingState });
      return;
    }
    // Links open their own place; selecting text is reading, not asking for the thread.
    if (target?.closest('a, button, .redline-suggestion') || !(window.getSelection()?.isCollapsed ?? true)) return;
    this.post({ type: 'revealFinding', id: block.dataset.finding });
  }
}

function decorate(block: HTMLElement, mark: FindingMark): void {
  block.classList.add('redline-finding');
  if (!block.hasAttribute('tabindex')) block.tabIndex = -1;
  block.setAttribute('aria-keyshortcuts', KEY_SHORTCUTS);
  block.classList.toggle('redline-finding-closed', mark.state !== 'open');
  block.classList.toggle('redline-finding-stale', mark.stale);
  block.title = 'Click to show this finding in the code';
  const bar = actionsBar(block);
  const key = `${mark.state}/${mark.stale}/${mark.importedFrom ?? ''}`;
  if (bar.dataset.shows === key) return;
  bar.dataset.shows = key;
  const parts: HTMLElement[] = [];
  if (mark.stale) parts.push(badge('code changed', 'redline-finding-badge redline-finding-badge-stale'));
  if (mark.importedFrom !== undefined) {
    const imported = badge('imported', 'redline-finding-badge redline-finding-badge-imported');
    imported.title = `Its answer or replies were ${mark.importedFrom}: not your own words.`;
    parts.push(imported);
  }
  if (mark.state === 'open') {
    for (const [state, label, tooltip] of OPEN_ACTIONS) parts.push(button(label, tooltip, state));
  } else {
    parts.push(
      badge(STATE_NAMES[mark.state], 'redline-finding-badge'),
      button('Reopen', 'Reopen this finding', 'open'),
    );
  }
  bar.replaceChildren(...parts);
}

function undecorate(block: HTMLElement): void {
  block.classList.remove('redline-finding', 'redline-finding-closed', 'redline-finding-stale');
  block.removeAttribute('title');
  block.removeAttribute('tabindex');
  block.removeAttribute('aria-keyshortcuts');
  block.querySelector(`:scope > .${ACTIONS_CLASS}, :scope > p:first-child > .${ACTIONS_CLASS}`)?.remove();
}

/** The block's actions bar, made once: after the item's first paragraph or text, before any nested list. */
function actionsBar(block: HTMLElement): HTMLElement {
  const existing = block.querySelector<HTMLElement>(
    `:scope > .${ACTIONS_CLASS}, :scope > p:first-child > .${ACTIONS_CLASS}`,
  );
  if (existing) return existing;
  const bar = document.createElement('span');
  bar.className = ACTIONS_CLASS;
  const first = block.firstElementChild;
  if (block.tagName === 'LI' && first?.tagName === 'P') first.append(bar);
  else
    block.insertBefore(
      bar,
      [...block.children].find((child) => child.tagName === 'UL' || child.tagName === 'OL') ?? null,
    );
  return bar;
}

function findingBlock(target: EventTarget | null): HTMLElement | undefined {
  return (target instanceof Element && target.closest<HTMLElement>('[data-finding].redline-finding')) || undefined;
}

function button(label: string, tooltip: string, state: FindingState): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = label;
  element.title = tooltip;
  element.dataset.state = state;
  return element;
}

function badge(text: string, className: string): HTMLElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}
