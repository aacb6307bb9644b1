// Renders the marketplace icon, extension/media/icon.png (256×256, transparent corners), from its
// source extension/media/icon.svg. Run by hand after changing the SVG, and commit both; the build
// and CI never run it, and only the PNG is packaged.
//
//   node scripts/icon.mjs          # CHROMIUM=/path/to/chrome for a browser other than Debian's
//
// Headless Chromium draws the SVG, through playwright-core (a devDependency); Debian's `chromium`
// package provides the browser (apt-get install chromium), as for the end-to-end tests.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SIZE = 256;
const source = fileURLToPath(new URL('../extension/media/icon.svg', import.meta.url));
const target = fileURLToPath(new URL('../extension/media/icon.png', import.meta.url));
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(executablePath)) {
  console.error(`No browser at ${executablePath}. Install Debian's (apt-get install chromium) or set CHROMIUM to one.`);
  process.exit(1);
}

const { chromium } = createRequire(import.meta.url)('playwright-core');
const svg = readFileSync(source, 'utf8');
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  // The SVG is drawn at SIZE whatever its own width and height say; nothing else is on the page.
  await page.setContent(
    `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${SIZE}px;height:${SIZE}px}</style>${svg}`,
  );
  const png = await page.locator('svg').first().screenshot({ omitBackground: true });
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width !== SIZE || height !== SIZE) throw new Error(`the icon came out ${width}×${height}, not ${SIZE}×${SIZE}`);
  writeFileSync(target, png);
  console.log(`wrote ${target} (${SIZE}×${SIZE}, ${png.length} bytes)`);
} finally {
  await browser.close();
}
