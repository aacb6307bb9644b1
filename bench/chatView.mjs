// The review's view in a chat (dist/review-view.html): its size, and how long it takes to render
// 10, 100 and 1,000 findings in Chromium, in the test host of the UI suite (test/e2e/ui/chatHost/)
// with get-review-view answered in the page. The floor beside it, measured in the same page in the
// same moments: the same number of list items with the same texts, made with bare DOM calls.
// Medians of BENCH_RUNS (default 20) renders each; written to test-artifacts/bench-chat-view.json.
//
//   node scripts/build.mjs --production && node bench/chatView.mjs

/* global window, document, requestAnimationFrame -- used in the functions run in the page */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { bundleHost, openChatHost } from '../test/e2e/ui/chatHost/chatHost.mjs';
import { median, ms, printTable, ratio } from './tables.mjs';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.env.BENCH_RUNS ?? 20);
const file = join(root, 'dist/review-view.html');
const html = readFileSync(file, 'utf8');
const SEVERITIES = ['blocking', 'bug', 'risk', 'suggestion', 'nit', 'question', 'praise'];

/** get-review-view's answer for `count` findings, each with a title and first lines of typical length. */
function viewOf(count) {
  const counts = Object.fromEntries([...SEVERITIES, 'none'].map((label) => [label, 0]));
  const findings = Array.from({ length: count }, (_, i) => {
    const severity = SEVERITIES[i % SEVERITIES.length];
    counts[severity]++;
    const line = (i % 400) + 1;
    return {
      id: `f${i}`,
      severity,
      title: `the handler at src/module${i % 37}.ts:${line} does not release the lock it takes on error`,
      reference: `src/module${i % 37}.ts:${line}`,
      file: `/home/user/project/src/module${i % 37}.ts`,
      line,
      endLine: line + (i % 3),
      state: i % 5 === 0 ? 'resolved' : 'open',
      stale: i % 11 === 0,
      excerpt: `**${severity}**: the handler at src/module${i % 37}.ts:${line} does not release the lock\nit takes on error, so the next call waits forever.`,
      replies: i % 4,
    };
  });
  return { revision: 7, title: 'Benchmark review', counts, findings };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
const results = [];
try {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const host = await openChatHost(context, { script: await bundleHost() });
  for (const count of [10, 100, 1000]) {
    const view = viewOf(count);
    const render = [];
    const floor = [];
    for (let run = 0; run < runs; run++) {
      await host.page.evaluate(([page, data]) => window.chatHost.showSynthetic(page, data), [html, view]);
      const frame = await host.viewFrame();
      await frame.waitForFunction(
        (n) => performance.getEntriesByName('redline-view-render').some((entry) => entry.detail.findings === n),
        count,
      );
      render.push(
        await frame.evaluate(
          (n) =>
            performance
              .getEntriesByName('redline-view-render')
              .filter((entry) => entry.detail.findings === n)
              .at(-1).duration,
          count,
        ),
      );
      floor.push(
        await frame.evaluate(
          (findings) =>
            new Promise((resolve) => {
              // As the view measures itself: from the first call to the paint after it.
              const started = performance.now();
              const list = document.createElement('ol');
              for (const finding of findings) {
                const item = document.createElement('li');
                item.textContent = `${finding.title} ${finding.excerpt}`;
                list.append(item);
              }
              document.body.append(list);
              requestAnimationFrame(() => {
                const channel = new MessageChannel();
                channel.port1.onmessage = () => {
                  resolve(performance.now() - started);
                  list.remove();
                };
                channel.port2.postMessage(undefined);
              });
            }),
          view.findings,
        ),
      );
    }
    results.push({ findings: count, renderMs: median(render), floorMs: median(floor), runs });
  }
  await host.close();
} finally {
  await browser.close();
}

const bytes = statSync(file).size;
const gzipped = gzipSync(readFileSync(file)).length;
console.log(`dist/review-view.html: ${(bytes / 1024).toFixed(1)} KiB, ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
console.log(`Medians of ${runs} renders in Chromium (the test host, get-review-view answered in the page):\n`);
printTable(
  ['findings', 'view render', 'floor: bare list items', 'ratio'],
  results.map((r) => [String(r.findings), ms(r.renderMs), ms(r.floorMs), ratio(r.renderMs, r.floorMs)]),
);
mkdirSync(join(root, 'test-artifacts'), { recursive: true });
writeFileSync(join(root, 'test-artifacts/bench-chat-view.json'), JSON.stringify({ bytes, gzipped, results }, null, 2));
