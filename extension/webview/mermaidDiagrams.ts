// The review's ```mermaid blocks, drawn as diagrams. The host renders each as
// `<pre class="redline-mermaid"><code>source</code></pre>`, which reads as code until it is drawn.
// The renderer (dist/mermaid.min.js, a large bundle) is loaded only when a review has such a block,
// by a <script> with the page's nonce. Diagrams are drawn one at a time, so the panel stays
// responsive, and again when the theme kind changes. mermaidUnderCsp.ts runs mermaid under the
// panel's CSP. A diagram's source is as untrusted as the rest of the review: mermaid runs with
// securityLevel 'strict' and without HTML labels, and what it returns is sanitized again.

import { inertMarkup } from './inertMarkup';
import { keepOwnRules, renderUnderCsp, svgForPanel, type Diagram, type Mermaid } from './mermaidUnderCsp';

export const BLOCK_SELECTOR = 'pre.redline-mermaid';
/** At most this many diagrams are drawn per review; the rest stay source. */
export const MAX_DIAGRAMS = 50;
/** A longer source is not drawn (mermaid's own `maxTextSize` is the same). */
export const MAX_SOURCE_LENGTH = 50_000;
const MAX_ERROR_LENGTH = 1000;
const DIAGRAM_CLASS = 'redline-mermaid-diagram';
const ERROR_CLASS = 'redline-mermaid-error';
const SCRATCH_CLASS = 'redline-mermaid-scratch';

type BlockState = 'queued' | 'drawn' | 'failed' | 'skipped';

/** Keys a diagram's own `%%{init}%%` or front matter may not change (mermaid's list, and more). */
const SECURE_KEYS = [
  'secure',
  'securityLevel',
  'startOnLoad',
  'maxTextSize',
  'suppressErrorRendering',
  'maxEdges',
  'htmlLabels',
  'dompurifyConfig',
  'logLevel',
  'deterministicIds',
];

/** mermaid's theme for the VS Code theme kind the webview's body classes name. */
export function mermaidTheme(body: DOMTokenList): string {
  if (body.contains('vscode-high-contrast-light')) return 'neutral';
  if (body.contains('vscode-high-contrast') || body.contains('vscode-dark')) return 'dark';
  return 'default';
}

export interface MermaidDiagramsOptions {
  /** The renderer's bundle; without it every diagram shows why it was not drawn. */
  readonly scriptUri: string | undefined;
  /** The page's script nonce, for the renderer's <script>. */
  readonly nonce: string;
  /** The page of the review shown, searched instead of a retired page still in the review body. */
  readonly page: () => ParentNode;
}

export class MermaidDiagrams {
  private readonly queue: HTMLElement[] = [];
  private running = false;
  private renderer: Promise<Mermaid> | undefined;
  /** The theme mermaid was last initialized with. */
  private theme: string | undefined;
  private sequence = 0;
  /** Each drawn diagram's stylesheet, by the id of its <svg>. */
  private readonly sheets = new Map<string, CSSStyleSheet>();
  /** What was added for a block: its diagram or its error line. */
  private readonly shown = new WeakMap<HTMLElement, Element>();
  private scratch: HTMLElement | undefined;

  /**
   * For the panel's own script, while it runs: the bundle's address and the nonce are on its
   * <script> element (`data-mermaid-src`, set by webviewHtml.ts).
   */
  static forPage(root: HTMLElement, page: () => ParentNode = () => root): MermaidDiagrams {
    const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
    return new MermaidDiagrams({
      scriptUri: script?.dataset.mermaidSrc || undefined,
      nonce: script?.nonce ?? '',
      page,
    });
  }

  private readonly scriptUri: string | undefined;
  private readonly nonce: string;
  private readonly page: () => ParentNode;

  constructor({ scriptUri, nonce, page }: MermaidDiagramsOptions) {
    this.scriptUri = scriptUri;
    this.nonce = nonce;
    this.page = page;
    new MutationObserver(() => this.redrawForTheme()).observe(document.body, {
      attributes: true,
      attributeFilter: ['class'],
    });
  }

  /** Queues the blocks a paint brought; call after every render and append. */
  update(): void {
    let index = 0;
    for (const block of this.page().querySelectorAll<HTMLElement>(BLOCK_SELECTOR)) {
      index++;
      if (block.dataset.diagram) continue;
      if (index > MAX_DIAGRAMS) {
        this.showError(block, `a review draws at most ${MAX_DIAGRAMS} diagrams`, 'skipped');
        continue;
      }
      this.setState(block, 'queued');
      this.queue.push(block);
    }
    this.dropUnusedSheets();
    if (this.queue.length > 0 && !this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (let block = this.queue.shift(); block; block = this.queue.shift()) {
        if (!block.isConnected || block.dataset.diagram !== 'queued') continue;
        await this.draw(block);
        // Let the panel paint and answer input between two diagrams.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      }
    } finally {
      this.running = false;
    }
  }

  private async draw(block: HTMLElement): Promise<void> {
    const source = block.textContent ?? '';
    if (source.length > MAX_SOURCE_LENGTH) {
      this.showError(block, `its source is longer than ${MAX_SOURCE_LENGTH.toLocaleString('en')} characters`);
      return;
    }
    let mermaid: Mermaid;
    try {
      mermaid = await this.load();
    } catch (error) {
      this.showError(block, messageOf(error));
      return;
    }
    const theme = mermaidTheme(document.body.classList);
    if (theme !== this.theme) {
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        htmlLabels: false,
        flowchart: { htmlLabels: false },
        maxTextSize: MAX_SOURCE_LENGTH,
        suppressErrorRendering: true,
        deterministicIds: false,
        logLevel: 'fatal',
        // Label markup reaches mermaid's sanitizer through this hook, made inert first (see inertMarkup.ts).
        dompurifyConfig: {
          FORBID_TAGS: ['style'],
          TRUSTED_TYPES_POLICY: { createHTML: inertMarkup, createScriptURL: (url: string) => url },
        },
        secure: SECURE_KEYS,
        theme,
      });
      this.theme = theme;
    }
    const id = `redline-mermaid-${++this.sequence}`;
    const sheet = new CSSStyleSheet();
    try {
      const svg = await this.renderUnderCsp(mermaid, { id, source }, sheet);
      // The review may have been replaced meanwhile.
      if (!block.isConnected) return;
      const figure = this.figure(svg, id);
      const line = block.getAttribute('data-line');
      if (line !== null) figure.setAttribute('data-line', line);
      this.replaceShown(block, figure);
      block.hidden = true;
      this.setState(block, 'drawn');
      this.dropUnusedSheets();
    } catch (error) {
      this.removeSheet(id);
      if (block.isConnected) this.showError(block, messageOf(error));
    } finally {
      this.scratch?.replaceChildren();
    }
  }

  /** Loads the renderer's bundle, once. */
  private load(): Promise<Mermaid> {
    this.renderer ??= new Promise<Mermaid>((resolve, reject) => {
      if (!this.scriptUri) {
        reject(new Error('the diagram renderer is not available'));
        return;
      }
      const script = document.createElement('script');
      script.nonce = this.nonce;
      script.src = this.scriptUri;
      script.addEventListener('load', () => {
        const mermaid = (globalThis as { mermaid?: Mermaid }).mermaid;
        if (mermaid && typeof mermaid.render === 'function') resolve(mermaid);
        else reject(new Error('the diagram renderer did not start'));
      });
      script.addEventListener('error', () => reject(new Error('the diagram renderer could not be loaded')));
      document.head.append(script);
    });
    return this.renderer;
  }

  /** mermaid.render under the panel's CSP (see mermaidUnderCsp.ts); the diagram's CSS goes into `sheet`. */
  private renderUnderCsp(mermaid: Mermaid, { id, source }: Diagram, sheet: CSSStyleSheet): Promise<string> {
    const styles: string[] = [];
    return renderUnderCsp(mermaid, {
      id,
      source,
      scratch: this.scratchElement(),
      onCss: (css) => {
        styles.push(css);
        sheet.replaceSync(styles.join('\n'));
        keepOwnRules(sheet, `#${id}`);
        if (!this.sheets.has(id)) {
          this.sheets.set(id, sheet);
          document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
        }
      },
    });
  }

  /** The diagram as the panel shows it: sanitized again, its styles back as CSSOM. */
  private figure(svgMarkup: string, id: string): HTMLElement {
    const figure = document.createElement('div');
    figure.className = DIAGRAM_CLASS;
    figure.append(svgForPanel(svgMarkup, id));
    return figure;
  }

  private showError(block: HTMLElement, message: string, state: BlockState = 'failed'): void {
    const error = document.createElement('p');
    error.className = ERROR_CLASS;
    error.setAttribute('role', 'note');
    const text = message.trim() || 'unknown error';
    error.textContent = `Diagram could not be drawn: ${text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text}`;
    this.replaceShown(block, error);
    block.hidden = false;
    this.setState(block, state);
  }

  /** Puts `element` above the block, instead of what was shown for it before. */
  private replaceShown(block: HTMLElement, element: Element): void {
    this.shown.get(block)?.remove();
    block.before(element);
    this.shown.set(block, element);
  }

  private setState(block: HTMLElement, state: BlockState): void {
    block.dataset.diagram = state;
  }

  /** Draws the drawn diagrams again in the new theme's colours (each stays until its new one is ready). */
  private redrawForTheme(): void {
    if (this.theme === undefined || mermaidTheme(document.body.classList) === this.theme) return;
    for (const block of this.page().querySelectorAll<HTMLElement>(`${BLOCK_SELECTOR}[data-diagram="drawn"]`)) {
      this.setState(block, 'queued');
      this.queue.push(block);
    }
    if (this.queue.length > 0 && !this.running) void this.drain();
  }

  private scratchElement(): HTMLElement {
    if (!this.scratch?.isConnected) {
      this.scratch = document.createElement('div');
      this.scratch.className = SCRATCH_CLASS;
      this.scratch.setAttribute('aria-hidden', 'true');
      document.body.append(this.scratch);
    }
    return this.scratch;
  }

  /** Stylesheets of diagrams no longer on the page (a new review replaced them) are dropped. */
  private dropUnusedSheets(): void {
    for (const id of [...this.sheets.keys()]) {
      if (!document.getElementById(id)) this.removeSheet(id);
    }
  }

  private removeSheet(id: string): void {
    const sheet = this.sheets.get(id);
    if (!sheet) return;
    this.sheets.delete(id);
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}
