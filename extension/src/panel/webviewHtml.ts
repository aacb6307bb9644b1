// Builds the review panel's whole webview document: a static shell (toolbar, empty state, body
// container) with a strict CSP. The review itself arrives later by postMessage. Plain strings
// in, so this module never needs `vscode` at runtime and is unit-tested directly.

import { randomBytes } from 'crypto';

export interface WebviewDocumentOptions {
  /** `webview.cspSource`: the origin the webview's own resources are served from. */
  readonly cspSource: string;
  /** `asWebviewUri` of the bundled webview script (`dist/webview.js`). */
  readonly scriptUri: string;
  /** `asWebviewUri` of the stylesheet (`media/review.css`). */
  readonly styleUri: string;
  /** The review's title, shown until the first render arrives. */
  readonly title?: string;
  /** Base64 nonce for the script tag; a fresh one is made when omitted. */
  readonly nonce?: string;
  /**
   * `asWebviewUri` of the diagram renderer, which the webview loads only for a review with a
   * diagram; by default the `MERMAID_FILE` beside `scriptUri`, where the build puts it.
   */
  readonly mermaidUri?: string;
}

/** The diagram renderer's bundle, copied into dist/ beside the webview script by the build. */
export const MERMAID_FILE = 'mermaid.min.js';
/** highlight.js and its grammars, built into dist/ beside the webview script; loaded when code nears the screen. */
export const HIGHLIGHTER_FILE = 'highlighter.js';

export const DEFAULT_TITLE = 'Redline Review';

/** A fresh CSP nonce (128 bits, base64). Use one per document, never reuse. */
export function createCspNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// A CSP nonce is base64 or base64url (CSP3 `base64-value`).
const NONCE_PATTERN = /^[A-Za-z0-9+/_-]+={0,2}$/;
// `;` and `,` would end the directive or the policy, so a source containing them could add its own.
const CSP_SOURCE_FORBIDDEN = /[;,\r\n]/;

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
    // Not covered by default-src: without these a <base> or a form could still point elsewhere.
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function buildWebviewHtml(options: WebviewDocumentOptions): string {
  const nonce = options.nonce ?? createCspNonce();
  if (!NONCE_PATTERN.test(nonce)) {
    throw new Error('The webview nonce must be base64.');
  }
  const cspSource = options.cspSource.trim();
  if (cspSource === '' || CSP_SOURCE_FORBIDDEN.test(cspSource)) {
    throw new Error(`Not a usable CSP source: ${JSON.stringify(options.cspSource)}`);
  }
  const title = escapeHtml(options.title || DEFAULT_TITLE);
  const csp = escapeHtml(contentSecurityPolicy(cspSource, nonce));

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
<title>${title}</title>
</head>
<body>
<header id="toolbar" class="redline-toolbar">
<nav id="tabs" class="redline-tabs" role="tablist" aria-label="Reviews by assistant" hidden></nav>
<span id="title" class="redline-title" title="${title}">${title}</span>
<span id="revision" class="redline-revision"></span>
<select id="history" class="redline-history" title="Show an earlier review of this window, read-only" aria-label="Review history" hidden></select>
<button id="compare" class="redline-compare" type="button" title="List which findings are new, fixed or still open since the review before this one" disabled>Compare with previous</button>
<button id="copy" class="redline-copy" type="button" title="Copy the review's markdown to the clipboard" disabled>Copy</button>
</header>
<section id="empty" class="redline-empty" hidden>
<p>Nothing has been presented yet.</p>
<p>A review appears here when an AI assistant calls the <code>present-review</code> tool.</p>
</section>
<section id="earlier" class="redline-earlier" role="status" hidden>
<span id="earlier-text"></span>
<button id="restore" type="button" title="Present this review again as the current one">Restore as current</button>
<button id="back" type="button">Back to current</button>
</section>
<section id="comparison" class="redline-comparison" aria-label="Comparison with the previous review" hidden></section>
<main id="review" class="redline-review"></main>
<div id="announcer" class="redline-visually-hidden" role="status" aria-live="polite"></div>
<footer class="redline-compose">
<textarea id="message" class="redline-message" rows="2" placeholder="Message the assistant… (Ctrl+Enter sends)" aria-label="Message to the assistant"></textarea>
<button id="send" class="redline-send" type="button" title="Send the message to the assistant" disabled>Send</button>
<span id="send-status" class="redline-send-status" role="status"></span>
</footer>
<script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"${mermaidAttribute(options)}${highlighterAttribute(options)}></script>
</body>
</html>
`;
}

/** Where the webview finds the diagram renderer: `data-mermaid-src` on its own script element. */
function mermaidAttribute(options: WebviewDocumentOptions): string {
  let uri = options.mermaidUri;
  if (uri === undefined) {
    try {
      uri = new URL(MERMAID_FILE, options.scriptUri).toString();
    } catch {
      return '';
    }
  }
  return ` data-mermaid-src="${escapeHtml(uri)}"`;
}

/** Where the webview finds the highlighter: `data-highlighter-src`, beside its own script. */
function highlighterAttribute(options: WebviewDocumentOptions): string {
  try {
    return ` data-highlighter-src="${escapeHtml(new URL(HIGHLIGHTER_FILE, options.scriptUri).toString())}"`;
  } catch {
    return '';
  }
}
