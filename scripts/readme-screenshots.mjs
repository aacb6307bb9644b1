// Copies the README's screenshots from the end-to-end UI suite's artifacts to docs/images/, under
// names that stay put when the tests are renumbered. Run by hand after the suite, then commit the
// PNGs; docs/ is not packaged into the .vsix.
//
//   node test/e2e/run.mjs --suite ui && npm run screenshots

import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** docs/images/<key>.png ← test-artifacts/e2e-ui-<value>.png, as test/e2e/ui/*.test.mjs name them. */
const SHOTS = {
  'review-panel': '02-review-rendered', // review.test.mjs: a review with headings, code and links
  'findings-in-panel': '06-findings-in-panel', // findings.test.mjs: findings with Resolve, Accept, Won't fix
  'finding-thread': '07-finding-thread-in-code', // findings.test.mjs: a finding's code and its comment thread
  'compare-with-previous': '20-compare-with-previous', // history.test.mjs: new, fixed and still open findings
  'mermaid-diagram': '17-mermaid-light', // mermaid.test.mjs: a diagram drawn in the panel
  'second-window': '23-second-window', // windows.test.mjs: another window's review, from a server started with no variables
  'chat-view': '62-chat-view', // chatView.test.mjs: the review's view in a chat (an MCP App in a browser host)
};

const artifacts = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const images = fileURLToPath(new URL('../docs/images', import.meta.url));

const missing = Object.values(SHOTS).filter((shot) => !existsSync(join(artifacts, `e2e-ui-${shot}.png`)));
if (missing.length > 0) {
  console.error(
    `Missing from test-artifacts/: ${missing.map((shot) => `e2e-ui-${shot}.png`).join(', ')}.\n` +
      'The end-to-end UI suite takes these screenshots. Run it first (npm run package, then ' +
      'node test/e2e/run.mjs --suite ui), and check that it passed; if a test was renamed, update SHOTS in ' +
      'scripts/readme-screenshots.mjs.',
  );
  process.exit(1);
}

mkdirSync(images, { recursive: true });
for (const [name, shot] of Object.entries(SHOTS)) {
  copyFileSync(join(artifacts, `e2e-ui-${shot}.png`), join(images, `${name}.png`));
  console.log(`docs/images/${name}.png ← test-artifacts/e2e-ui-${shot}.png`);
}
