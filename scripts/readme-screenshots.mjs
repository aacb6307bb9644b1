// `npm run screenshots`' last step: the README's pictures from what the UI suite's "README
// pictures" tests (test/e2e/ui/readmePictures.test.mjs) and its chat view's test
// (test/e2e/ui/chatView.test.mjs) left in test-artifacts/: the screenshots
// copied to docs/images/ under names that stay put, and the main loop's frames assembled into
// docs/images/main-loop.gif with ffmpeg (Debian's package), at a modest frame rate and under 2 MB.
// docs/ is not packaged: vsce points the README's images at the repository (package.json's
// repository), so commit docs/images/ with the README.
//
//   npm run screenshots     (packages, runs those tests, then this)

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** docs/images/<key>.png ← test-artifacts/e2e-ui-<value>.png. */
const SHOTS = {
  review: 'readme-review', // the sample review beside its code, a finding accepted
  'finding-thread': 'readme-finding-thread', // a finding's code and its comment thread
  assistants: 'readme-assistants', // two assistants' reviews, a tab each
  compare: 'readme-compare', // compare with the previous review
  'chat-view': '62-chat-view', // chatView.test.mjs: the review's view in a chat (an MCP App in a browser host)
};
const GIF_LIMIT_BYTES = 2 * 1024 * 1024;
/** Tried in turn until the GIF fits: frames per second, width, colours. */
const GIF_SETTINGS = [
  { fps: 8, width: 960, colors: 128 },
  { fps: 6, width: 880, colors: 96 },
  { fps: 5, width: 800, colors: 64 },
];

const artifacts = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const images = fileURLToPath(new URL('../docs/images', import.meta.url));
const frameList = join(artifacts, 'main-loop', 'frames.txt');

const missing = [
  ...Object.values(SHOTS)
    .map((shot) => `e2e-ui-${shot}.png`)
    .filter((name) => !existsSync(join(artifacts, name))),
  ...(existsSync(frameList) ? [] : ['main-loop/frames.txt']),
];
if (missing.length > 0) {
  fail(
    `Missing from test-artifacts/: ${missing.join(', ')}.\nThe UI suite's "README pictures" and chat view tests make these: ` +
      'npm run package, then node test/e2e/run.mjs --suite ui --grep "README pictures" and --grep "the review in a chat", and check that they passed.',
  );
}
try {
  execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
} catch {
  fail("ffmpeg is missing: install Debian's package (apt-get install ffmpeg), then run this again.");
}

mkdirSync(images, { recursive: true });
for (const [name, shot] of Object.entries(SHOTS)) {
  copyFileSync(join(artifacts, `e2e-ui-${shot}.png`), join(images, `${name}.png`));
  console.log(`docs/images/${name}.png ← test-artifacts/e2e-ui-${shot}.png`);
}

const gif = join(images, 'main-loop.gif');
const trial = join(artifacts, 'main-loop.gif');
for (const { fps, width, colors } of GIF_SETTINGS) {
  const filter =
    `fps=${fps},scale=${width}:-1:flags=lanczos,split[a][b];` +
    `[a]palettegen=max_colors=${colors}:stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=5:diff_mode=rectangle`;
  execFileSync(
    'ffmpeg',
    ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', frameList, '-vf', filter, '-loop', '0', trial],
    {
      stdio: 'inherit',
    },
  );
  const bytes = statSync(trial).size;
  console.log(`main-loop.gif at ${fps} fps, ${width} px wide, ${colors} colours: ${(bytes / 1024).toFixed(0)} KiB`);
  if (bytes <= GIF_LIMIT_BYTES) {
    renameSync(trial, gif);
    console.log(`docs/images/main-loop.gif ← test-artifacts/main-loop/ (${(bytes / 1024).toFixed(0)} KiB)`);
    process.exit(0);
  }
}
rmSync(trial, { force: true });
fail('main-loop.gif stays over 2 MB at every setting tried: shorten the recording in readmePictures.test.mjs.');

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(message);
  process.exit(1);
}
