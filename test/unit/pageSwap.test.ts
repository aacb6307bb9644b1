// The webview's pages: a new review's page replaces a large old one without touching what is in
// it (one class on one element), and the old one is taken apart afterwards; a small old page goes
// at once. Run against a stand-in for the few DOM calls the module makes, which records them.

import { PAGE_CLASS, RETIRED_CLASS, ReviewPages } from '../../extension/webview/pageSwap';
import { until } from '../support/until';

/** Every DOM call made on an element that was a page's child, or on the old page itself, in order. */
let calls: string[] = [];

class FakeElement {
  readonly children: FakeElement[] = [];
  parent: FakeElement | undefined;
  className = '';
  readonly classList = {
    replace: (from: string, to: string) => {
      calls.push(`${this.name}: class ${from} → ${to}`);
      this.className = this.className.replace(from, to);
    },
  };

  constructor(readonly name: string) {}

  prepend(child: FakeElement): void {
    child.parent = this;
    this.children.unshift(child);
  }

  /** One child per call: a block of the page. */
  insertAdjacentHTML(_where: string, html: string): void {
    calls.push(`${this.name}: parse ${html.length}`);
    const block = new FakeElement(`${this.name}/block${this.children.length}`);
    block.parent = this;
    this.children.push(block);
  }

  get lastChild(): FakeElement | null {
    return this.children[this.children.length - 1] ?? null;
  }

  remove(): void {
    calls.push(`${this.name}: removed`);
    this.parent!.children.splice(this.parent!.children.indexOf(this), 1);
    this.parent = undefined;
  }
}

let made = 0;
beforeEach(() => {
  calls = [];
  made = 0;
  (globalThis as { document?: unknown }).document = {
    createElement: () => new FakeElement(`page${++made}`),
    createDocumentFragment: () => new FakeElement('nothing'),
  };
});
afterAll(() => delete (globalThis as { document?: unknown }).document);

describe('ReviewPages', () => {
  it('replaces a large page by hiding it in one step, then takes it apart in the background', async () => {
    const body = new FakeElement('body');
    const pages = new ReviewPages(body as unknown as HTMLElement);
    for (let i = 0; i < 200; i++) pages.add('x'.repeat(1024));
    const old = pages.current as unknown as FakeElement;
    calls = [];

    const page = pages.replace() as unknown as FakeElement;
    pages.add('<p>small</p>');
    // Nothing of the old page is removed, parsed or compared: one class on the old page, then the new page's own HTML.
    expect(calls).toEqual([`page1: class ${PAGE_CLASS} → ${RETIRED_CLASS}`, 'page2: parse 12']);
    expect(old.children).toHaveLength(200);
    expect(body.children[0]).toBe(page);
    expect(page.className).toBe(PAGE_CLASS);

    await until(() => old.parent === undefined, 'the old page taken apart');
    expect(old.children).toHaveLength(0);
    expect(body.children).toEqual([page]);
    expect(page.children).toHaveLength(1);
  });

  it('removes a small old page at once, and clears to nothing', () => {
    const body = new FakeElement('body');
    const pages = new ReviewPages(body as unknown as HTMLElement);
    pages.add('<p>a</p>');
    const old = pages.current as unknown as FakeElement;
    pages.replace();
    expect(old.parent).toBeUndefined();
    expect(body.children).toHaveLength(1);
    pages.clear();
    expect(body.children).toHaveLength(0);
  });

  it('gives searches the page shown, never a retired page still being taken apart, and nothing when none is shown', () => {
    const body = new FakeElement('body');
    const pages = new ReviewPages(body as unknown as HTMLElement);
    for (let i = 0; i < 200; i++) pages.add('x'.repeat(1024));
    expect(pages.shown).toBe(pages.current);
    const page = pages.replace() as unknown as FakeElement;
    // The old page is still in the body, hidden, but what the findings, diagrams and highlighting search is the new one.
    expect(body.children).toHaveLength(2);
    expect(pages.shown).toBe(page);
    pages.clear();
    expect((pages.shown as unknown as FakeElement).name).toBe('nothing');
    expect(body.children.map((child) => child.name)).not.toContain('nothing');
  });
});
