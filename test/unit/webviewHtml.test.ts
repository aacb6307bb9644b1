import {
  buildWebviewHtml,
  contentSecurityPolicy,
  createCspNonce,
  HIGHLIGHTER_FILE,
  MERMAID_FILE,
} from '../../extension/src/panel/webviewHtml';

const options = {
  cspSource: 'https://*.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/review.css',
};

/** Undoes the escaping a browser undoes when it reads an attribute value. */
function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function cspOf(html: string): Map<string, string[]> {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  expect(match).not.toBeNull();
  const directives = new Map<string, string[]>();
  for (const directive of decodeAttribute(match![1]).split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) {
      directives.set(name, sources);
    }
  }
  return directives;
}

function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)].map((match) => match[0]);
}

/** The attribute names of every tag, read the way a browser would (values are double-quoted). */
function attributeNames(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((tag) =>
    [...tag[0].replace(/"[^"]*"/g, '""').matchAll(/\s([^\s"'=<>/]+)/g)].map((match) => match[1].toLowerCase()),
  );
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeAttribute(match[1]) : undefined;
}

describe('buildWebviewHtml', () => {
  it('sets a CSP that denies everything but the nonce script and the extension resources', () => {
    const csp = cspOf(buildWebviewHtml({ ...options, nonce: 'abc123' }));

    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'nonce-abc123'"]);
    expect(csp.get('style-src')).toEqual([options.cspSource]);
    expect(csp.get('img-src')).toEqual([options.cspSource]);
    expect(csp.get('font-src')).toEqual([options.cspSource]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
  });

  it('loads one external script whose nonce matches the CSP, and no inline script', () => {
    const html = buildWebviewHtml(options);
    const nonce = /'nonce-([^']+)'/.exec(cspOf(html).get('script-src')!.join(' '))![1];
    const scripts = scriptTags(html);

    expect(scripts).toHaveLength(1);
    expect(attribute(scripts[0], 'nonce')).toBe(nonce);
    expect(attribute(scripts[0], 'src')).toBe(options.scriptUri);
    expect(scripts[0]).toMatch(/><\/script>$/);
  });

  it('links the stylesheet and has no inline styles or event handlers', () => {
    const html = buildWebviewHtml(options);

    expect(html).toContain(`<link rel="stylesheet" href="${options.styleUri}">`);
    expect(html).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(attributeNames(html)).toContain('nonce');
    expect(attributeNames(html).filter((name) => name.startsWith('on') || name === 'style')).toEqual([]);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/<form\b/i);
  });

  it('uses a fresh nonce for every document', () => {
    const nonceOf = (html: string) => attribute(scriptTags(html)[0], 'nonce');
    const first = nonceOf(buildWebviewHtml(options));
    const second = nonceOf(buildWebviewHtml(options));

    expect(first).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(first).not.toBe(second);
    expect(createCspNonce()).not.toBe(createCspNonce());
  });

  it('escapes the title in text and attributes', () => {
    const title = `Fix "quotes" & <b>tags</b> in it's title`;
    const html = buildWebviewHtml({ ...options, title });

    expect(html).not.toContain('<b>');
    expect(html).not.toContain('"quotes"');
    expect(html).toContain('<title>Fix &quot;quotes&quot; &amp; &lt;b&gt;tags&lt;/b&gt; in it&#39;s title</title>');
    const titleSpan = /<span id="title"[^>]*>/.exec(html)![0];
    expect(attribute(titleSpan, 'title')).toBe(title);
  });

  it('escapes resource URIs, so a quote cannot add an attribute', () => {
    const scriptUri = 'https://example.test/a.js" onload="alert(1)';
    const styleUri = "https://example.test/a.css'><script>alert(1)</script>";
    const html = buildWebviewHtml({ ...options, scriptUri, styleUri });

    expect(attributeNames(html).filter((name) => name.startsWith('on'))).toEqual([]);
    expect(scriptTags(html)).toHaveLength(1);
    expect(attribute(scriptTags(html)[0], 'src')).toBe(scriptUri);
    expect(attribute(/<link [^>]*>/.exec(html)![0], 'href')).toBe(styleUri);
  });

  it('tells the script where the diagram renderer is, beside itself unless told, without loading it', () => {
    const html = buildWebviewHtml({ ...options, nonce: 'abc123' });
    const scripts = scriptTags(html);

    // One script: the renderer is loaded by the webview only for a review with a diagram.
    expect(scripts).toHaveLength(1);
    expect(attribute(scripts[0], 'data-mermaid-src')).toBe(
      `https://file+.vscode-resource.vscode-cdn.net/ext/dist/${MERMAID_FILE}`,
    );
    const mermaidUri = 'https://example.test/m.js" onload="alert(1)';
    const told = scriptTags(buildWebviewHtml({ ...options, mermaidUri }))[0];
    expect(attribute(told, 'data-mermaid-src')).toBe(mermaidUri);
    expect(attributeNames(told).filter((name) => name.startsWith('on'))).toEqual([]);
    // The CSP stays as strict: the renderer's <script> carries the page's nonce; no style, no eval.
    expect(cspOf(html).get('script-src')).toEqual(["'nonce-abc123'"]);
    expect(cspOf(html).get('style-src')).toEqual([options.cspSource]);
    expect(html).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes/);
  });

  it('tells the script where the highlighter is, beside itself, without loading it', () => {
    const scripts = scriptTags(buildWebviewHtml(options));
    // One script: the highlighter is loaded by the webview when a code block nears the screen.
    expect(scripts).toHaveLength(1);
    expect(attribute(scripts[0], 'data-highlighter-src')).toBe(
      `https://file+.vscode-resource.vscode-cdn.net/ext/dist/${HIGHLIGHTER_FILE}`,
    );
    const hostile = scriptTags(
      buildWebviewHtml({ ...options, scriptUri: 'https://example.test/dist/w.js?a="b" onload="alert(1)' }),
    )[0];
    expect(attribute(hostile, 'data-highlighter-src')).toBe('https://example.test/dist/highlighter.js');
    expect(attributeNames(hostile).filter((name) => name.startsWith('on'))).toEqual([]);
  });

  it('refuses a CSP source or nonce that could add its own directives', () => {
    expect(() => buildWebviewHtml({ ...options, cspSource: "https://x; script-src 'unsafe-inline'" })).toThrow(
      /CSP source/,
    );
    expect(() => buildWebviewHtml({ ...options, cspSource: ' ' })).toThrow(/CSP source/);
    expect(() => buildWebviewHtml({ ...options, nonce: "abc' 'unsafe-inline" })).toThrow(/nonce/);
  });

  it('has the toolbar, copy button, revision, empty state and review container', () => {
    const html = buildWebviewHtml(options);

    expect(html).toMatch(/<header id="toolbar"[^>]*>/);
    expect(html).toMatch(/<button id="copy"[^>]*\stype="button"[^>]*>Copy<\/button>/);
    expect(html).toMatch(/<span id="revision"[^>]*>/);
    expect(html).toMatch(/<main id="review"[^>]*><\/main>/);
    const empty = /<section id="empty"[^>]*>([\s\S]*?)<\/section>/.exec(html)![1];
    expect(empty).toContain('Nothing has been presented yet');
    expect(empty).toContain('present-review');
  });
});

describe('contentSecurityPolicy', () => {
  it('is the same policy the document carries', () => {
    const html = buildWebviewHtml({ ...options, nonce: 'n0nce' });
    expect(html).toContain(`content="${contentSecurityPolicy(options.cspSource, 'n0nce').replace(/'/g, '&#39;')}"`);
  });
});
