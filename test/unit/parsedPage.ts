// A page of the panel parsed as a browser parses it (parse5 implements the HTML standard's parser
// and serializer), with the few DOM members the webview's code highlighting uses, so that its
// result can be compared with another page as DOM, not as strings a browser would never see.

import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

/** An element of the page, as the webview's code sees it. */
export class PageElement {
  constructor(
    readonly node: Element,
    private readonly page: ParsedPage,
  ) {}

  getAttribute(name: string): string | null {
    return this.node.attrs.find((attr) => attr.name === name)?.value ?? null;
  }

  setAttribute(name: string, value: string): void {
    const attr = this.node.attrs.find((a) => a.name === name);
    if (attr) attr.value = value;
    else this.node.attrs.push({ name, value });
  }

  removeAttribute(name: string): void {
    this.node.attrs = this.node.attrs.filter((attr) => attr.name !== name);
  }

  get className(): string {
    return this.getAttribute('class') ?? '';
  }

  set className(value: string) {
    this.setAttribute('class', value);
  }

  get isConnected(): boolean {
    let node: Node | null = this.node;
    while (node && node !== this.page.root) node = 'parentNode' in node ? node.parentNode : null;
    return node === this.page.root;
  }

  get textContent(): string {
    return textOf(this.node);
  }

  set innerHTML(html: string) {
    const fragment = parseFragment(this.node, html, {});
    for (const child of fragment.childNodes) child.parentNode = this.node;
    this.node.childNodes = fragment.childNodes;
  }

  querySelectorAll(selector: string): PageElement[] {
    return this.page.select(this.node, selector);
  }

  get outerHTML(): string {
    const holder = parseFragment('');
    holder.childNodes = [this.node];
    return serialize(holder);
  }
}

export class ParsedPage {
  readonly root: ParentNode;
  private readonly elements = new WeakMap<Element, PageElement>();

  constructor(html: string) {
    this.root = parseFragment(html);
  }

  /** Elements that match `tag[attribute]` or `.class` below the page, in document order (the selectors the webview uses). */
  querySelectorAll(selector: string): PageElement[] {
    return this.select(this.root, selector);
  }

  /** `querySelectorAll` below `node`. */
  select(node: ParentNode, selector: string): PageElement[] {
    const matches = matcher(selector);
    return elementsOf(node)
      .filter(matches)
      .map((element) => this.wrap(element));
  }

  /** Every element with this tag name, in document order. */
  byTag(tag: string): PageElement[] {
    return elementsOf(this.root)
      .filter((element) => element.tagName === tag)
      .map((element) => this.wrap(element));
  }

  /** Takes the page's content out, as a new page replaces it in the panel. */
  clear(): void {
    for (const child of this.root.childNodes) child.parentNode = null;
    this.root.childNodes = [];
  }

  /** Adds a part at the end, as an append or a slice does. */
  append(html: string): void {
    const fragment = parseFragment(html);
    for (const child of fragment.childNodes) {
      child.parentNode = this.root;
      this.root.childNodes.push(child);
    }
  }

  /** The page as the browser would serialize it. */
  get html(): string {
    return serialize(this.root);
  }

  private wrap(element: Element): PageElement {
    let wrapped = this.elements.get(element);
    if (!wrapped) {
      wrapped = new PageElement(element, this);
      this.elements.set(element, wrapped);
    }
    return wrapped;
  }
}

function matcher(selector: string): (element: Element) => boolean {
  const byAttribute = /^([a-z]+)\[([a-z-]+)\]$/.exec(selector);
  if (byAttribute) {
    const [, tag, attribute] = byAttribute;
    return (element) => element.tagName === tag && element.attrs.some((attr) => attr.name === attribute);
  }
  const byClass = /^\.([a-z-]+)$/.exec(selector);
  if (byClass) {
    const name = byClass[1];
    return (element) => (element.attrs.find((attr) => attr.name === 'class')?.value ?? '').split(/\s+/).includes(name);
  }
  throw new Error(`ParsedPage understands tag[attribute] and .class selectors only, not ${selector}`);
}

function elementsOf(node: ParentNode): Element[] {
  const found: Element[] = [];
  for (const child of node.childNodes) {
    if ('tagName' in child) {
      found.push(child);
      found.push(...elementsOf(child));
    }
  }
  return found;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}
