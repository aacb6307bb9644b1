// Running mermaid under the panel's CSP, which allows no inline style: mermaid writes a <style>
// element and style="" attributes. While it draws, the <style> element's text is handed to the
// caller (for a constructable stylesheet) and style attributes go through CSSOM, which the CSP does
// not govern; they travel through mermaid's own serialization and sanitizing as data attributes
// and become CSSOM again in svgForPanel. What mermaid returns is sanitized again there.

/** The part of mermaid's API the panel uses (the bundle sets `globalThis.mermaid`). */
export interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  render(id: string, text: string, container?: Element): Promise<{ svg: string }>;
}

/** Where an inline style waits while mermaid serializes and sanitizes its SVG. */
const STYLE_DATA = 'data-redline-style';

/** Elements a diagram never needs, which could load, run or animate something. */
const REMOVED_ELEMENTS =
  'script, style, iframe, frame, object, embed, link, meta, base, img, image, video, audio, source, animate, animateMotion, animateTransform, set, redline-style';

/** A diagram to draw: the id its <svg> gets, and its source. */
export interface Diagram {
  readonly id: string;
  readonly source: string;
}

export interface DrawingUnderCsp extends Diagram {
  /** A hidden element in the document, where mermaid lays the diagram out. */
  readonly scratch: HTMLElement;
  /** Takes the text of each <style> element mermaid writes. */
  readonly onCss: (css: string) => void;
}

/** mermaid.render, with what the CSP would block redirected for as long as it runs, and put back after. */
export async function renderUnderCsp(
  mermaid: Mermaid,
  { id, source, scratch, onCss }: DrawingUnderCsp,
): Promise<string> {
  const enclosingId = `d${id}`;
  const elementProto = Element.prototype;
  const { setAttribute, setAttributeNS } = elementProto;
  const innerHtml = Object.getOwnPropertyDescriptor(elementProto, 'innerHTML')!;
  const restore: Array<() => void> = [];
  const patch = <T extends object, K extends keyof T>(target: T, key: K, value: T[K]) => {
    const own = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { value, configurable: true, writable: true });
    restore.push(() => (own ? Object.defineProperty(target, key, own) : delete target[key]));
  };
  // A style attribute becomes CSSOM, which the CSP allows.
  patch(elementProto, 'setAttribute', function (this: Element, name: string, value: string) {
    if (name.toLowerCase() === 'style' && 'style' in this) {
      (this as HTMLElement).style.cssText = String(value);
      return;
    }
    setAttribute.call(this, name, value);
  });
  patch(elementProto, 'setAttributeNS', function (this: Element, ...args: Parameters<Element['setAttributeNS']>) {
    const [namespace, name, value] = args;
    if (!namespace && name.toLowerCase() === 'style' && 'style' in this) {
      (this as HTMLElement).style.cssText = String(value);
      return;
    }
    setAttributeNS.apply(this, args);
  });
  // A <style> element is never made: an inert stand-in hands its text to onCss.
  const createElement = document.createElement;
  const createElementNS = document.createElementNS;
  const standIn = () => {
    const element = createElement.call(document, 'redline-style');
    for (const property of ['innerHTML', 'textContent', 'innerText']) {
      Object.defineProperty(element, property, {
        configurable: true,
        get: () => '',
        set: (css: unknown) => onCss(String(css ?? '')),
      });
    }
    return element;
  };
  patch(document, 'createElement', function (this: Document, tagName: string, options?: ElementCreationOptions) {
    return tagName.toLowerCase() === 'style' ? standIn() : createElement.call(this, tagName, options);
  } as Document['createElement']);
  patch(document, 'createElementNS', function (this: Document, ...args: Parameters<Document['createElementNS']>) {
    return args[1].toLowerCase() === 'style' ? standIn() : createElementNS.apply(this, args);
  } as Document['createElementNS']);
  // Just before mermaid serializes the drawing, its style attributes become data attributes, so
  // that no style attribute is ever parsed from markup (by mermaid's DOMPurify, or here).
  Object.defineProperty(elementProto, 'innerHTML', {
    ...innerHtml,
    get(this: Element) {
      if (this.id === enclosingId) stashStyles(this);
      return innerHtml.get!.call(this);
    },
  });
  restore.push(() => Object.defineProperty(elementProto, 'innerHTML', innerHtml));
  try {
    return (await mermaid.render(id, source, scratch)).svg;
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}

/** The <svg> mermaid returned, sanitized again, with its styles back as CSSOM, at its natural width. */
export function svgForPanel(svgMarkup: string, id: string): SVGSVGElement {
  const template = document.createElement('template');
  template.innerHTML = svgMarkup;
  const parsed = template.content.querySelector('svg');
  if (!parsed || parsed.id !== id) throw new Error('the renderer returned no drawing');
  // Should mermaid ever serialize without the stash above, a style attribute still never reaches the page.
  stashStyles(parsed);
  const svg = document.importNode(parsed, true);
  sanitize(svg);
  for (const element of [svg, ...svg.querySelectorAll(`[${STYLE_DATA}]`)]) {
    const style = element.getAttribute(STYLE_DATA);
    if (style === null) continue;
    element.removeAttribute(STYLE_DATA);
    if ('style' in element) (element as SVGElement).style.cssText = style;
  }
  // Its natural size: a wide diagram scrolls rather than shrinking to unreadable text.
  const width = svg.viewBox.baseVal?.width;
  if (width) {
    svg.removeAttribute('width');
    svg.style.width = `${Math.ceil(width)}px`;
    svg.style.maxWidth = 'none';
  }
  return svg;
}

/**
 * Keeps only the rules that apply inside the diagram (mermaid scopes each to the <svg>'s id), so
 * that nothing a diagram's source put in its theme CSS can restyle the rest of the panel.
 */
export function keepOwnRules(sheet: CSSStyleSheet | CSSGroupingRule, scope: string): void {
  for (let index = sheet.cssRules.length - 1; index >= 0; index--) {
    const rule = sheet.cssRules[index];
    let keep = false;
    if (rule instanceof CSSStyleRule) {
      keep = rule.selectorText.split(',').every((selector) => {
        const trimmed = selector.trim();
        return (
          trimmed === scope ||
          trimmed.startsWith(`${scope} `) ||
          trimmed.startsWith(`${scope}>`) ||
          trimmed.startsWith(`${scope}.`) ||
          trimmed.startsWith(`${scope}:`)
        );
      });
    } else if (rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule) {
      keepOwnRules(rule, scope);
      keep = true;
    } else if (rule instanceof CSSKeyframesRule) {
      keep = true;
    }
    if (!keep) sheet.deleteRule(index);
  }
}

function stashStyles(root: Element): void {
  for (const element of [root, ...root.querySelectorAll('[style]')]) {
    const style = element.getAttribute('style');
    if (style === null) continue;
    element.setAttribute(STYLE_DATA, style);
    element.removeAttribute('style');
  }
}

/**
 * Removes what mermaid's own sanitizing should already have: anything that loads or runs, event
 * handlers, and links (a diagram's `click … href` must not navigate; in-document `#` references stay).
 */
function sanitize(svg: SVGSVGElement): void {
  for (const element of svg.querySelectorAll(REMOVED_ELEMENTS)) element.remove();
  for (const element of [svg, ...svg.querySelectorAll('*')]) {
    for (const { name, value } of [...element.attributes]) {
      const local = name.toLowerCase().replace(/^.*:/, '');
      if (
        local.startsWith('on') ||
        ((local === 'href' || local === 'src' || local === 'action') && !value.trim().startsWith('#'))
      ) {
        element.removeAttribute(name);
      }
    }
  }
}
