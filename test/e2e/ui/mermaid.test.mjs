// ```mermaid blocks as the user sees them: drawn as diagrams in the panel's colours, the source and
// the reason for one that cannot be drawn, nothing run from a hostile one, the CSP never asked to
// allow anything, and the renderer's bundle loaded only for a review that has a diagram.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { runCommand } from '../harness/workbench.mjs';
import { RedlineSession, session, waitFor } from './session.mjs';
import { WAIT_DEADLINE_MS } from '../../support/deadlines.cjs';

/** @typedef {import('playwright-core').Frame} Frame */

const RENDERER = /mermaid\.min\.js/;
const TIMING_RUNS = 5;
const CSP_MESSAGE = /Content Security Policy|Refused to (load|execute|apply|frame)/i;

/** @param {string} source */
const fence = (source) => ['```mermaid', source, '```'].join('\n');

/** @param {string} marker */
function flowchart(marker) {
  return fence(
    [
      'flowchart LR',
      `  A[Order ${marker}] --> B{Coupon valid?}`,
      '  B -->|yes| C[Apply discount]',
      '  B -->|no| D[Full price]',
      '  C --> E[Add tax]',
      '  D --> E',
    ].join('\n'),
  );
}

const SEQUENCE = fence(
  ['sequenceDiagram', '  Assistant->>Redline: present-review', '  Redline-->>Assistant: feedback'].join('\n'),
);
const INVALID = fence(['flowchart TD', '  A --> B', '  B --> '].join('\n'));

/**
 * Records CSP violations in the panel's document (once per document) and returns what it has seen.
 * @param {Frame} frame
 * @returns {Promise<string[]>}
 */
function cspViolations(frame) {
  return frame.evaluate(() => {
    const w = /** @type {any} */ (window);
    if (!w.__redlineCsp) {
      w.__redlineCsp = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        w.__redlineCsp.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
      });
    }
    return [...w.__redlineCsp];
  });
}

/**
 * Waits until the panel shows a drawn diagram whose text contains `text`.
 * @param {Frame} frame @param {string} text @param {number} [timeoutMs]
 */
function diagramWith(frame, text, timeoutMs = WAIT_DEADLINE_MS) {
  return frame.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('#review .redline-mermaid-diagram svg')].some((svg) =>
        svg.textContent?.includes(wanted),
      ),
    text,
    { polling: 'raf', timeout: timeoutMs },
  );
}

/** What the user sees of the first diagram holding `text`: its size, and the colours of a node and its label. */
function diagramLooks(/** @type {string} */ text) {
  const svg = [...document.querySelectorAll('#review .redline-mermaid-diagram svg')].find((candidate) =>
    candidate.textContent?.includes(text),
  );
  if (!svg) return null;
  const label = [...svg.querySelectorAll('text, tspan')].find((element) => element.textContent?.includes(text));
  const node = label?.closest('.node');
  const shape = node?.querySelector('rect, polygon, path, circle');
  const box = svg.getBoundingClientRect();
  const labelBox = label?.getBoundingClientRect();
  return {
    width: box.width,
    height: box.height,
    shapeFill: shape ? getComputedStyle(shape).fill : 'no shape',
    shapeStroke: shape ? getComputedStyle(shape).stroke : 'no shape',
    labelFill: label ? getComputedStyle(label).fill : 'no label',
    labelWidth: labelBox?.width ?? 0,
    background: getComputedStyle(document.body).backgroundColor,
    sourceHidden:
      /** @type {HTMLElement} */ (svg.closest('.redline-mermaid-diagram')?.nextElementSibling)?.hidden ?? false,
  };
}

describe('Diagrams in a review', () => {
  /** @type {string[]} */
  const rendererRequests = [];
  const onRequest = (/** @type {import('playwright-core').Request} */ request) => {
    if (RENDERER.test(request.url())) rendererRequests.push(request.url());
  };
  let consoleStart = 0;

  before(() => {
    const s = session();
    consoleStart = s.consoleMessages.length;
    s.page.on('request', onRequest);
  });

  after(() => {
    session().page.off('request', onRequest);
  });

  it('loads no renderer for a review without a diagram', async () => {
    const s = session();
    const marker = RedlineSession.marker('NO-DIAGRAM');
    await s.call('present-review', {
      content: `# No diagram ${marker}\n\n\`\`\`ts\nconst a = 1;\n\`\`\`\n`,
      title: 'No diagram',
    });
    const frame = await s.waitForReviewText(marker);
    // A paint and a frame later, when a diagram would already have asked for the bundle.
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const found = await frame.evaluate(() => ({
      scripts: [...document.scripts].map((script) => script.src.split('/').pop() || 'inline'),
      rendererSrc: document
        .querySelector('script[data-mermaid-src]')
        ?.getAttribute('data-mermaid-src')
        ?.split('/')
        .pop(),
      mermaid: typeof (/** @type {any} */ (window).mermaid),
    }));
    assert.equal(found.rendererSrc, 'mermaid.min.js', "the panel's script knows where the renderer is");
    // The code block brings the highlighter (highlighter.js), which is no diagram renderer.
    assert.deepEqual(
      found.scripts.filter((script) => script !== 'highlighter.js'),
      ['inline', 'webview.js'],
      'scripts in the document',
    );
    assert.equal(found.mermaid, 'undefined');
    assert.deepEqual(rendererRequests, [], 'requests for the renderer');
  });

  it('draws a flowchart as an SVG with its labels visible, and shows the source and the reason for one it cannot draw', async function () {
    const s = session();
    const marker = RedlineSession.marker('FLOW');
    const content = [
      `# Diagrams ${marker}`,
      '',
      'How a price is worked out:',
      '',
      flowchart(marker),
      '',
      'Who talks to whom:',
      '',
      SEQUENCE,
      '',
      'A diagram with a mistake:',
      '',
      INVALID,
      '',
    ].join('\n');
    const frame = await s.reviewFrame();
    await cspViolations(frame);
    const started = performance.now();
    await Promise.all([s.call('present-review', { content, title: 'Diagrams' }), diagramWith(frame, marker)]);
    const coldMs = performance.now() - started;
    await diagramWith(frame, 'present-review');
    const error = frame.locator('#review .redline-mermaid-error');
    await error.waitFor({ state: 'visible' });

    // The flowchart: an <svg> in the panel, shapes filled, labels drawn, the source put away.
    const looks = await frame.evaluate(diagramLooks, marker);
    assert.ok(looks, 'the flowchart is drawn');
    assert.ok(looks.width > 200 && looks.height > 50, `the diagram has a size: ${looks.width}×${looks.height}`);
    assert.ok(!['none', 'rgba(0, 0, 0, 0)'].includes(looks.shapeFill), `the node is filled: ${looks.shapeFill}`);
    assert.notEqual(looks.shapeStroke, 'none', 'the node has an outline');
    assert.ok(!['none', 'rgba(0, 0, 0, 0)'].includes(looks.labelFill), `the label is painted: ${looks.labelFill}`);
    assert.ok(looks.labelWidth > 20, 'the label has width');
    assert.equal(looks.sourceHidden, true, "the drawn diagram's source is put away");
    // A label is drawn one word to a <tspan>, so each word is looked for on its own.
    for (const word of [
      'Order',
      marker,
      'Coupon',
      'valid?',
      'Apply',
      'discount',
      'Full',
      'price',
      'Add',
      'tax',
      'yes',
      'no',
    ]) {
      await frame
        .locator('#review .redline-mermaid-diagram svg text', { hasText: word })
        .first()
        .waitFor({ state: 'visible' });
    }

    // The invalid one: its source, visible, and the reason above it; no error picture of mermaid's own.
    assert.match(await error.innerText(), /^Diagram could not be drawn: Parse error on line \d+:.*Expecting/s);
    assert.equal(await error.count(), 1);
    const source = frame.locator('#review pre.redline-mermaid', { hasText: 'flowchart TD' });
    assert.equal(await source.isVisible(), true, 'the source of the invalid diagram is shown');
    assert.equal(await source.innerText(), 'flowchart TD\n  A --> B\n  B --> \n');
    const leftovers = await frame.evaluate(() => ({
      svgs: document.querySelectorAll('#review svg').length,
      bomb: document.body.textContent?.includes('Syntax error in text') ?? false,
      outside: [...document.body.querySelectorAll('svg, [id^="dredline"]')].filter(
        (element) => !element.closest('#review'),
      ).length,
    }));
    assert.deepEqual(leftovers, { svgs: 2, bomb: false, outside: 0 });

    assert.deepEqual(await cspViolations(frame), [], 'CSP violations in the panel');
    assert.equal(rendererRequests.length, 1, 'the renderer is fetched once');
    await s.screenshot('17-mermaid-light');
    await error.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await s.screenshot('17-mermaid-light-error');
    s.figures['present-review call to the first diagram drawn (loads the renderer)'] = `${coldMs.toFixed(0)} ms`;
    process.stdout.write(`      present-review → first diagram drawn, renderer loaded: ${coldMs.toFixed(0)} ms\n`);
  });

  it(`is drawn within a moment of present-review (median of ${TIMING_RUNS})`, async function () {
    const s = session();
    const frame = await s.reviewFrame();
    /** @type {number[]} */
    const samples = [];
    for (let run = 1; run <= TIMING_RUNS; run++) {
      const marker = RedlineSession.marker(`TIMED-${run}`);
      const started = performance.now();
      const drawn = diagramWith(frame, marker);
      await Promise.all([
        s.call('present-review', {
          content: `# Timed diagram ${run}\n\n${flowchart(marker)}\n`,
          title: 'Timed diagram',
        }),
        drawn,
      ]);
      samples.push(performance.now() - started);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const figure = `median ${sorted[Math.floor(TIMING_RUNS / 2)].toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted[TIMING_RUNS - 1].toFixed(0)} ms over ${TIMING_RUNS} calls (renderer already loaded)`;
    s.figures['present-review call to a flowchart drawn in the webview'] = figure;
    process.stdout.write(`      present-review → diagram drawn: ${figure}\n`);
  });

  it('runs nothing a hostile diagram carries, follows none of its links, and the CSP reports nothing', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    await cspViolations(frame);
    const frameUrl = frame.url();
    const dialogsStart = s.dialogs.length;
    const popupsStart = s.popups.length;
    // What the payloads would call or set if anything ran.
    await frame.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__redlinePwned = undefined;
      w.redlinePwn = (/** @type {string} */ how) => {
        w.__redlinePwned = how;
      };
    });
    const marker = RedlineSession.marker('HOSTILE-DIAGRAM');
    const hostile = fence(
      [
        'flowchart LR',
        `  A[Call ${marker}] --> B[Script link]`,
        '  C["<img src=x onerror=redlinePwn(\'img\')>"] --> D["<script>redlinePwn(\'script\')</script>"]',
        "  E[\"<b style='color:red' onmouseover=redlinePwn('hover')>Styled</b>\"] --> F[Plain link]",
        '  click A call redlinePwn("click")',
        '  click B href "javascript:redlinePwn(\'href\')"',
        '  click F "https://example.invalid/pwned" _blank',
      ].join('\n'),
    );
    const escalating = fence(
      [
        '%%{init: {"securityLevel": "loose", "htmlLabels": true, "flowchart": {"htmlLabels": true}, "themeCSS": "} body { display: none } #x {"}}%%',
        'flowchart LR',
        '  G["<img src=x onerror=redlinePwn(\'loose-img\')>"] --> H[Loose call]',
        '  click H call redlinePwn("loose-click")',
      ].join('\n'),
    );
    await s.call('present-review', {
      content: `# Hostile diagrams\n\n${hostile}\n\n${escalating}\n`,
      title: 'Hostile diagrams',
    });
    await diagramWith(frame, marker);
    await diagramWith(frame, 'Loose');
    for (const label of [marker, 'Script', 'Plain', 'Loose', 'Styled']) {
      const node = frame.locator('#review .redline-mermaid-diagram g.node', { hasText: label }).first();
      await node.hover();
      await node.click();
    }
    // A last message through the same console, so that anything the clicks caused has been seen.
    await frame.evaluate(() => console.log('redline-e2e-mermaid-last'));
    await waitFor(
      () => s.consoleMessages.some((message) => message.includes('redline-e2e-mermaid-last')),
      'the console watcher to see the last message',
    );

    const found = await frame.evaluate(() => {
      const review = /** @type {HTMLElement} */ (document.getElementById('review'));
      return {
        pwned: /** @type {any} */ (window).__redlinePwned ?? null,
        active: [
          ...review.querySelectorAll('script, iframe, object, embed, img, image, foreignObject, style, link'),
        ].map((element) => element.tagName),
        handlers: [...review.querySelectorAll('*')].flatMap((element) =>
          [...element.attributes]
            .filter((attribute) => /^on/i.test(attribute.name))
            .map((attribute) => `${element.tagName}.${attribute.name}`),
        ),
        links: [...review.querySelectorAll('svg [href], svg a')]
          .map(
            (element) => element.getAttribute('href') ?? element.getAttributeNS('http://www.w3.org/1999/xlink', 'href'),
          )
          .filter((href) => href !== null && !href.startsWith('#')),
        bodyShown: getComputedStyle(document.body).display !== 'none' && getComputedStyle(review).display !== 'none',
        diagrams: review.querySelectorAll('.redline-mermaid-diagram svg').length,
      };
    });
    assert.deepEqual(found, { pwned: null, active: [], handlers: [], links: [], bodyShown: true, diagrams: 2 });
    assert.deepEqual(s.dialogs.slice(dialogsStart), [], 'browser dialogs');
    assert.deepEqual(s.popups.slice(popupsStart), [], 'new windows or tabs');
    assert.equal((await s.reviewFrame()).url(), frameUrl, 'the webview frame is where it was');
    assert.deepEqual(await cspViolations(frame), [], 'CSP violations in the panel');
    await s.screenshot('19-mermaid-hostile');
  });

  it('draws at most 50 diagrams of a review and none past 50,000 characters; the rest stay source', async function () {
    const s = session();
    const frame = await s.reviewFrame();
    const marker = RedlineSession.marker('MANY');
    const small = Array.from({ length: 51 }, (_, index) =>
      fence(`flowchart LR\n  n${index}[${index === 0 ? marker : `Step ${index}`}] --> m${index}[Done]`),
    );
    const huge = fence(`flowchart LR\n${'  a --> b\n'.repeat(5_100)}`);
    await s.call('present-review', {
      content: `# Many diagrams\n\n${huge}\n\n${small.join('\n\n')}\n`,
      title: 'Many diagrams',
    });
    await diagramWith(frame, marker);
    await frame.waitForFunction(
      () => document.querySelectorAll('#review pre.redline-mermaid:not([data-diagram="queued"])').length === 52,
      null,
      { polling: 500 },
    );
    const states = await frame.evaluate(() => ({
      blocks: [...document.querySelectorAll('#review pre.redline-mermaid')].map(
        (block) => /** @type {HTMLElement} */ (block).dataset.diagram,
      ),
      errors: [...document.querySelectorAll('#review .redline-mermaid-error')].map((error) => error.textContent),
    }));
    assert.equal(states.blocks.length, 52);
    assert.deepEqual(states.blocks.slice(0, 1), ['failed'], 'the huge one is not drawn');
    assert.deepEqual(states.errors, [
      'Diagram could not be drawn: its source is longer than 50,000 characters',
      'Diagram could not be drawn: a review draws at most 50 diagrams',
      'Diagram could not be drawn: a review draws at most 50 diagrams',
    ]);
    assert.equal(states.blocks.filter((state) => state === 'drawn').length, 49);
  });

  it('draws again in the colours of a dark theme', async function () {
    const s = session();
    const marker = RedlineSession.marker('THEMED');
    const frame = await s.reviewFrame();
    await s.call('present-review', {
      content: `# Themed diagrams ${marker}\n\n${flowchart(marker)}\n\n${SEQUENCE}\n\n${INVALID}\n`,
      title: 'Diagrams',
    });
    await diagramWith(frame, marker);
    const light = await frame.evaluate(diagramLooks, marker);
    assert.ok(light);
    await runCommand(s.page, 'Preferences: Color Theme', { opensPicker: true });
    await s.page.keyboard.type('Dark Modern');
    await s.page.keyboard.press('Enter');
    try {
      const dark = await waitFor(
        async () => {
          const looks = await frame.evaluate(diagramLooks, marker);
          return looks && looks.shapeFill !== light.shapeFill && looks.background !== light.background && looks;
        },
        'the diagram to be drawn in the dark theme',
        30_000,
      );
      assert.notEqual(dark.labelFill, light.labelFill, 'the label colour follows the theme');
      await diagramWith(frame, 'present-review');
      await s.screenshot('18-mermaid-dark');
      await frame
        .locator('#review .redline-mermaid-error')
        .evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await s.screenshot('18-mermaid-dark-error');
    } finally {
      await runCommand(s.page, 'Preferences: Color Theme', { opensPicker: true });
      await s.page.keyboard.type('Light Modern');
      await s.page.keyboard.press('Enter');
    }
    await waitFor(
      async () => (await frame.evaluate(diagramLooks, marker))?.shapeFill === light.shapeFill,
      'the light diagram back',
      30_000,
    );
    assert.deepEqual(await cspViolations(frame), [], 'CSP violations in the panel');
  });

  it('reported no CSP violation and loaded every file it asked for', async () => {
    const s = session();
    assert.deepEqual(
      s.consoleMessages.slice(consoleStart).filter((message) => CSP_MESSAGE.test(message)),
      [],
      'CSP messages in the console',
    );
    assert.deepEqual(s.failedExtensionResources, [], "the extension's files that failed to load");
    assert.equal(rendererRequests.length, 1, 'the renderer is fetched once for all these reviews');
  });
});
