// Reviews of a given size as assistants write them, for the timing test and bench/windowProfile.mjs:
// one generator, so that the suite's table and the profile measure the same text. Each finding is
// a heading, list items with severity labels, references in prose, code spans and links, a URL and
// a `ts` block (bench/reviewFixtures.ts's shape), pointing into the fixture workspace's
// src/example.ts. The first and the last heading hold markers, so a probe can tell when each is
// on screen.

/** Lines in the fixture workspace's src/example.ts, which every reference points into. */
const EXAMPLE_LINES = 60;
const SEVERITIES = ['bug', 'risk', 'nit', 'suggestion', 'question'];

/** @param {number} i */
function finding(i) {
  const line = (i % (EXAMPLE_LINES - 3)) + 1;
  return (
    `## ${i + 1}. Retries without a limit in src/example.ts\n\n` +
    `- **${SEVERITIES[i % SEVERITIES.length]}**: the handler at src/example.ts:${line} retries forever; compare \`src/example.ts:${line}-${line + 2}\` and [the caller](src/util.ts#L${(i % 8) + 1}).\n` +
    `- **risk**: the limit is read once (see https://example.com/issues/${i}).\n\n` +
    `**nit**: the name at src/example.ts:${line + 1} says nothing about the unit; \`retry()\` is called with seconds.\n\n` +
    '```ts\n' +
    `export function retry${i}(attempts: number, delayMs = 100): Promise<void> {\n` +
    '  return attempts > 0 ? wait(delayMs).then(() => retry(attempts - 1, delayMs * 2)) : Promise.resolve();\n' +
    '}\n```\n\n'
  );
}

/**
 * A review of findings of at most `bytes` (ASCII), within a finding of it: `first` in its first
 * heading, `last` in its last, which a short paragraph ends.
 * @param {number} bytes @param {{ first: string, last: string }} markers
 */
export function sizedReview(bytes, { first, last }) {
  const parts = [`# Review ${first}\n\nThree kinds of problem below; the first matters most.\n\n`];
  const end = `## The last finding ${last}\n\nNothing else.\n`;
  let size = parts[0].length + end.length;
  for (let i = 0; ; i++) {
    const next = finding(i);
    if (size + next.length > bytes) break;
    parts.push(next);
    size += next.length;
  }
  parts.push(end);
  return parts.join('');
}

/** The sizes the timing test and the profile compare, by name. */
export const REVIEW_SIZES = Object.freeze({
  '20 KiB': 20 * 1024,
  '100 KiB': 100 * 1024,
  '1 MiB': 1024 * 1024,
  // present-review's limit.
  '10 MiB': 10 * 1024 * 1024,
});
