// A review is written by an AI and may carry whatever it read: script tags, javascript: and
// command: links, raw HTML. In the panel all of it must be inert text, even when clicked.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { session, waitFor } from './session.mjs';

/** Every payload would write "PWNED-<name>" to the console (or run a command) if it ever ran. */
const PAYLOADS = [
  ['script', "<script>console.log('PWNED-script')</script> a script tag"],
  ['img-onerror', `<img src="x" onerror="console.log('PWNED-img')"> an img with onerror`],
  ['svg-onload', `<svg onload="console.log('PWNED-svg')"></svg> an svg with onload`],
  ['iframe', `<iframe src="javascript:console.log('PWNED-iframe')"></iframe> an iframe`],
  ['raw-anchor', `<a href="javascript:console.log('PWNED-anchor')">a raw anchor</a>`],
  ['javascript-link', "[a javascript: link](javascript:console.log('PWNED-js'))"],
  ['entity-link', "[an entity-encoded javascript: link](jav&#x61;script:console.log('PWNED-entity'))"],
  ['data-link', '[a data: link](data:text/html;base64,PHNjcmlwdD5jb25zb2xlLmxvZygnUFdORUQtZGF0YScpPC9zY3JpcHQ+)'],
  ['command-link', '[a command: link that opens a terminal](command:workbench.action.terminal.new)'],
  [
    'command-args',
    '[a command: link that types into a terminal](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22touch%20PWNED%5Cn%22%7D)',
  ],
  ['command-clear', '[a command: link that clears the review](command:redline.clearReview)'],
  ['vbscript-link', '[a vbscript: link](vbscript:msgbox(1))'],
  ['autolink', "<javascript:console.log('PWNED-autolink')>"],
  ['image', '![an image](https://example.invalid/pwned.png)'],
  ['javascript-image', "![a javascript: image](javascript:console.log('PWNED-imgsrc'))"],
  ['reference-definition', '[a reference-style javascript: link][evil]'],
  ['style', '<style>body { display: none }</style> a style tag'],
  ['form', '<form action="https://example.invalid/"><button>a form button</button></form>'],
  ['meta-refresh', '<meta http-equiv="refresh" content="0;url=https://example.invalid/"> a meta refresh'],
  ['base', '<base href="https://example.invalid/"> a base tag'],
  ['object', '<object data="data:text/html,<script>console.log(\'PWNED-object\')</script>"></object> an object'],
  ['title-breakout', `[a title that breaks out](src/example.ts:5 "\\" onmouseover=\\"console.log('PWNED-title')")`],
  ['code-breakout', '`src/example.ts:5"onmouseover="console.log(\'PWNED-code\')`'],
  ['html-in-link-text', "[<img src=x onerror=console.log('PWNED-text')>](src/example.ts:3)"],
  ['svg-script', `<svg><script>console.log('PWNED-svgscript')</script></svg> a script inside svg`],
  ['body-onload', `<body onload="console.log('PWNED-body')"> a body tag`],
  ['input-autofocus', `<input autofocus onfocus="console.log('PWNED-input')"> an autofocus input`],
  ['details-ontoggle', `<details open ontoggle="console.log('PWNED-details')">x</details> details`],
  ['link-stylesheet', '<link rel="stylesheet" href="https://example.invalid/x.css"> a stylesheet link'],
  ['embed', '<embed src="https://example.invalid/x.swf"> an embed'],
  [
    'video-poster',
    `<video poster="https://example.invalid/p.png" onerror="console.log('PWNED-video')"></video> a video`,
  ],
  ['image-with-title', '![an image with a title](https://example.invalid/t.png "title")'],
  [
    'data-image',
    '![a data: image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImNvbnNvbGUubG9nKCdQV05FRC1kYXRhaW1nJykiLz4=)',
  ],
  ['vscode-link', '[a vscode: link](vscode://redline-dev.redline/pwned)'],
  ['file-host-link', '[a file: link with a host](file://example.invalid/etc/passwd)'],
  ['mixed-case-js', "[a mixed-case javascript: link](JaVaScRiPt:console.log('PWNED-case'))"],
  ['percent-js', "[a percent-encoded javascript: link](%6Aavascript:console.log('PWNED-pct'))"],
  ['tab-js', "[a javascript: link with a tab](java%09script:console.log('PWNED-tab'))"],
  ['command-autolink', '<command:workbench.action.terminal.new>'],
  ['noscript', `<noscript><img src=x onerror="console.log('PWNED-noscript')"></noscript> noscript`],
  ['math-xlink', `<math><a xlink:href="javascript:console.log('PWNED-math')">a math link</a></math>`],
  ['template', `<template><img src=x onerror="console.log('PWNED-template')"></template> a template`],
  ['marquee', `<marquee onstart="console.log('PWNED-marquee')">a marquee</marquee>`],
];

/** Clicked after the payloads; its file opening shows that the clicks before it were all handled. */
const CONTROL_REFERENCE = 'src/util.ts:7';

/** Payloads whose click may legitimately open a file (they are real references); the rest must do nothing. */
const OPENS_A_FILE = new Set(['title-breakout', 'html-in-link-text']);

function hostileReview() {
  return [
    '# Hostile review',
    '',
    ...PAYLOADS.map(([name, markdown]) => `- ${name}: ${markdown}`),
    '',
    '',
    `Control: ${CONTROL_REFERENCE}`,
    '',
    "[evil]: javascript:console.log('PWNED-refdef')",
    '',
  ].join('\n');
}

/**
 * Where to click a payload inside its list item: the middle of its first characters after the
 * "name:" label, whatever it rendered as (text, inline code, a link). Runs in the webview.
 * @param {Element} item @param {string} label
 * @returns {{ x: number, y: number } | null} relative to the item
 */
function payloadPosition(item, label) {
  const box = item.getBoundingClientRect();
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    let start = Math.max(0, label.length - seen);
    seen += text.length;
    while (start < text.length && /\s/.test(text[start])) start++;
    if (start >= text.length) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, Math.min(text.length, start + 3));
    const rect = range.getClientRects()[0];
    if (rect) return { x: rect.left + rect.width / 2 - box.left, y: rect.top + rect.height / 2 - box.top };
  }
  return null;
}

describe('A hostile review', () => {
  /** @type {any} */
  let presented;

  it('renders as inert text: no script, no active element, no href but "#"', async () => {
    const s = session();
    presented = await s.call('present-review', { content: hostileReview(), title: 'Hostile review' });
    const frame = await s.waitForReviewText('html-in-link-text');
    const found = await frame.evaluate(() => {
      const review = /** @type {HTMLElement} */ (document.getElementById('review'));
      // The panel's own Resolve/Accept/Won't fix bar beside a finding is not from the markdown: it
      // comes a moment after the text, so it is left out rather than raced.
      const active = [
        ...review.querySelectorAll(
          'script, iframe, frame, object, embed, img, svg, style, link, form, input, button, meta, base',
        ),
      ].filter((element) => !element.closest('.redline-finding-actions'));
      const handlers = [...review.querySelectorAll('*')].flatMap((element) =>
        [...element.attributes]
          .filter((attribute) => /^on/i.test(attribute.name))
          .map((attribute) => `${element.tagName}.${attribute.name}`),
      );
      const hrefs = [...review.querySelectorAll('a')]
        .map((anchor) => anchor.getAttribute('href'))
        .filter((href) => href !== '#');
      const classes = [...review.querySelectorAll('a')]
        .map((anchor) => anchor.className)
        .filter((name) => !/^redline-(ref|external)( redline-broken)?$/.test(name));
      // VS Code's own inline script (acquireVsCodeApi) in <head>, and the panel's scripts by src.
      const scripts = [...document.scripts].map((script) =>
        script.src
          ? `src:${script.src.split('/').slice(-2).join('/')}:${script.nonce ? 'nonce' : 'no nonce'}`
          : `inline in ${script.parentElement?.tagName}`,
      );
      return { active: active.map((element) => element.tagName), handlers, hrefs, classes, scripts };
    });
    assert.deepEqual(found.active, [], 'active elements in the review');
    assert.deepEqual(found.handlers, [], 'event-handler attributes in the review');
    assert.deepEqual(found.hrefs, [], 'hrefs other than "#"');
    assert.deepEqual(found.classes, [], 'anchors that are neither references nor web links');
    // The highlighter too, with the page's nonce, once the panel has highlighted code.
    assert.deepEqual(
      found.scripts.filter((script) => script !== 'src:dist/highlighter.js:nonce'),
      ['inline in HEAD', 'src:dist/webview.js:nonce'],
      "scripts in the webview document: VS Code's and the panel's",
    );
    // The raw HTML is shown to the user as text, so a review cannot hide anything.
    const text = await frame.locator('#review').innerText();
    assert.ok(text.includes("<script>console.log('PWNED-script')</script>"), 'the script tag is visible as text');
    assert.equal(await frame.locator('body').isVisible(), true, 'a <style> in the review did not hide the page');
    await s.screenshot('09-hostile-rendered');
  });

  it('runs nothing, navigates nowhere and opens nothing when each payload is clicked', async () => {
    const s = session();
    const frame = await s.reviewFrame();
    const frameUrl = frame.url();
    const frameCount = s.page.frames().length;
    const shells = new Set(s.shellPids());
    const consoleStart = s.consoleMessages.length;
    const dialogsStart = s.dialogs.length;
    const popupsStart = s.popups.length;
    /** @type {string[]} */
    const navigations = [];
    /** @type {string[]} */
    const offsite = [];
    const onNavigated = (/** @type {import('playwright-core').Frame} */ navigated) => {
      if (navigated !== s.page.mainFrame()) navigations.push(navigated.url());
    };
    // Nothing may leave for anywhere but the code-server the workbench came from.
    const origin = new URL(s.page.url()).origin;
    const onRequest = (/** @type {import('playwright-core').Request} */ request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !/^(blob|vscode-[a-z-]+):/i.test(url)) offsite.push(url);
    };
    s.page.on('framenavigated', onNavigated);
    s.page.on('request', onRequest);
    try {
      assert.ok(PAYLOADS.length >= 40, `the corpus has ${PAYLOADS.length} payloads`);
      // The watcher must see this frame's console, or its silence below would prove nothing.
      await frame.evaluate(() => console.log('redline-e2e-console-control'));

      for (const [name] of PAYLOADS) {
        const item = frame.locator('#review li', { hasText: new RegExp(`^${name}:`) });
        const position = await item.evaluate(payloadPosition, `${name}:`);
        assert.ok(position, `${name}: nothing to click after the label`);
        await item.hover({ position });
        await item.click({ position });
        if (OPENS_A_FILE.has(name)) {
          // A real reference: it may open its file, which is harmless. Bring the panel back.
          await s.page.locator('.tabs-container .tab', { hasText: 'Review: Hostile review' }).click();
        }
      }
      // Instead of waiting a while for something to go wrong: a real reference clicked last goes
      // through the same webview → host path as every payload, so once its file is open at its
      // line, every earlier click has been handled. The same for the console with a last message.
      await frame.locator(`#review a.redline-ref[data-ref="${CONTROL_REFERENCE}"]`).click();
      await s.page
        .locator('.editor-group-container.active .tab.active', { hasText: 'util.ts' })
        .waitFor({ state: 'visible' });
      await s.waitForCursor(7);
      await s.page.locator('.tabs-container .tab', { hasText: 'Review: Hostile review' }).click();
      await frame.evaluate(() => console.log('redline-e2e-console-last'));
      await waitFor(
        () => s.consoleMessages.some((message) => message.includes('redline-e2e-console-last')),
        'the console watcher to see the last message',
      );
      await s.screenshot('10-hostile-clicked');

      const messages = s.consoleMessages.slice(consoleStart);
      assert.ok(
        messages.some((message) => message.includes('redline-e2e-console-control')),
        'the console watcher sees the webview',
      );
      assert.deepEqual(
        messages.filter((message) => /PWNED|Ignored call to '(alert|confirm|prompt)/.test(message)),
        [],
        'console output from a payload',
      );
      assert.deepEqual(s.dialogs.slice(dialogsStart), [], 'browser dialogs');
      assert.deepEqual(s.popups.slice(popupsStart), [], 'new windows or tabs');
      assert.deepEqual(navigations, [], 'frame navigations');
      assert.deepEqual(offsite, [], 'requests that left the machine or the workbench');
      assert.equal((await s.reviewFrame()).url(), frameUrl, 'the webview frame is where it was');
      assert.equal(s.page.frames().length, frameCount, 'no frame was added');
      // Shells may exit meanwhile (an earlier terminal's); none may start.
      assert.deepEqual(
        s.shellPids().filter((pid) => !shells.has(pid)),
        [],
        'no terminal was started',
      );
      assert.equal(existsSync(join(s.workspace, 'PWNED')), false, 'no command was typed into a terminal');
      const review = await s.call('get-review');
      assert.equal(review.revision, presented.revision, 'command:redline.clearReview did not run');
      assert.equal(await frame.locator('#review h1').innerText(), 'Hostile review');
    } finally {
      s.page.off('framenavigated', onNavigated);
      s.page.off('request', onRequest);
    }
  });

  it("loads the panel's own script and stylesheet, with no CSP violation", async () => {
    const s = session();
    assert.deepEqual(s.failedExtensionResources, [], "the extension's files that failed to load");
    const violations = s.consoleMessages.filter((message) =>
      /Content Security Policy|Refused to (load|execute|apply|frame)/i.test(message),
    );
    assert.deepEqual(violations, [], 'CSP violations');
    const frame = await s.reviewFrame();
    // review.css applied: the toolbar is laid out as a flex row.
    assert.equal(await frame.locator('#toolbar').evaluate((element) => getComputedStyle(element).display), 'flex');
  });
});
