// `node bench/render.mjs [--before <dir>]`: only the render table of `npm run bench` (markdown-it
// alone, with highlight.js, and Redline's renderer of each build, on one thread). See bench/run.mjs.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

execFileSync(
  process.execPath,
  [fileURLToPath(new URL('run.mjs', import.meta.url)), '--only', 'render', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
