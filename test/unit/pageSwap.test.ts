// The webview's pages: each slice of HTML is parsed out of the document and joins the page in one
// step; a new review's page replaces a large old one without touching what is in it (one class on
// one element), and the old one is taken apart afterwards; a small old page goes at once. Run
// against a stand-in for the few DOM calls the module makes, which records them.

import { PAGE_CLASS, RETIRED_CLASS, ReviewPages } from '../../extension/webview/pageSwap';
import { GROUP_CLASS, SLICE_CLASS } from '../../extension/webview/sliceBlocks';
import { until } from '../support/until';

/** Every DOM call that changes an element, in order, as "<element>: <call>". */
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
    add: (name: string) => {
      calls.push(`${this.name}: class + ${name}`);
      this.className = `${this.className} ${name}`.trim();
    },
    contains: (name: string) => this.className.split(' ').includes(name),
  };
  readonly style = { setProperty: () => undefined };

  constructor(readonly name: string) {}

  prepend(child: FakeElement): void {
    child.parent = this;
    this.children.unshift(child);
  }

  /** In the document: under the body. */
  get connected(): boolean {
    if (this.name === 'body') return true;
    let node = this.parent;
    while (node && node.name !== 'body') node = node.parent;
    return node !== undefined;
  }

  /** Recorded only in the document: what is built out of it costs the page nothing. */
  append(child: FakeElement): void {
    if (this.connected) calls.push(`${this.name}: append ${child.name}`);
    if (child.parent) child.parent.children.splice(child.parent.children.indexOf(child), 1);
    child.parent = this;
    this.children.push(child);
  }

  /** Ten blocks per call, as a slice of a page holds many. */
  insertAdjacentHTML(_where: string, html: string): void {
    calls.push(`parse ${html.length}${this.connected ? ' in the document' : ' out of the document'}`);
    for (let i = 0; i < 10; i++) {
      const block = new FakeElement(`${this.name}/block${this.children.length}`);
      block.parent = this;
      this.children.push(block);
    }
  }

  querySelectorAll(): FakeElement[] {
    return [];
  }

  get textContent(): string {
    return 'text';
  }

  matches(): boolean {
    return false;
  }

  get tagName(): string {
    return 'P';
  }

  get firstElementChild(): FakeElement | null {
    return this.children[0] ?? null;
  }

  get lastElementChild(): FakeElement | null {
    return this.lastChild;
  }

  get lastChild(): FakeElement | null {
    return this.children[this.children.length - 1] ?? null;
  }

  get childNodes(): FakeElement[] {
    return this.children;
  }

  remove(): void {
    if (this.connected) calls.push(`${this.name}: removed`);
    this.parent!.children.splice(this.parent!.children.indexOf(this), 1);
    this.parent = undefined;
  }
}

let made = 0;
beforeEach(() => {
  calls = [];
  made = 0;
  (globalThis as { document?: unknown }).document = {
    createElement: () => new FakeElement(`div${++made}`),
    createDocumentFragment: () => new FakeElement('nothing'),
  };
});
afterAll(() => delete (globalThis as { document?: unknown }).document);

describe('ReviewPages', () => {
  it('parses each slice out of the document, then adds it to the page in one step', () => {
    const body = new FakeElement('body');
    const pages = new ReviewPages(body as unknown as HTMLElement);
    const slice = pages.add('<p>one</p>') as unknown as FakeElement;
    expect(calls).toEqual(['parse 10 out of the document', `div1: append ${slice.name}`]);
    expect(slice.className).toBe(SLICE_CLASS);
    // Its blocks, in a group.
    expect(slice.children.map((group) => [group.className, group.children.length])).toEqual([[GROUP_CLASS, 10]]);
    expect(pages.current.className).toBe(PAGE_CLASS);
    pages.add('<p>two</p>');
    expect(pages.slices()).toHaveLength(2);
  });

  it('replaces a large page by hiding it in one step, then takes it apart in the background', async () => {
    const body = new FakeElement('body');
    const pages = new ReviewPages(body as unknown as HTMLElement);
    for (let i = 0; i < 200; i++) pages.add('x'.repeat(1024));
    const old = pages.current as unknown as FakeElement;
    const slices = [...old.children];
    calls = [];

    const page = pages.replace() as unknown as FakeElement;
    pages.add('<p>small</p>');
    // Nothing of the old page is removed, parsed or compared: one class on the old page, then the new page's own slice.
    expect(calls).toEqual([
      `div1: class ${PAGE_CLASS} → ${RETIRED_CLASS}`,
      'parse 12 out of the document',
      `${page.name}: append ${(pages.slices()[0] as unknown as FakeElement).name}`,
    ]);
    expect(old.children).toHaveLength(200);
    expect(body.children[0]).toBe(page);
    expect(page.className).toBe(PAGE_CLASS);
    expect(pages.slices()).toHaveLength(1);

    await until(() => old.parent === undefined, 'the old page taken apart');
    expect(old.children).toHaveLength(0);
    expect(slices.every((slice) => slice.children.length === 0 || slice.parent === undefined)).toBe(true);
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
    expect(pages.slices()).toEqual([]);
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
