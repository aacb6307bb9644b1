// Large reviews and the files they point at, for the render bench and the renderer's linear-time
// tests: one generator, so the figures in the bench and the shapes the tests check are the same.

import * as fs from 'fs';
import * as path from 'path';

export const FIXTURE_MODULES = 20;

/** src/mod<i>/index.ts with 400 lines each, which the generated references point into. */
export function writeFixtureFiles(root: string): void {
  for (let i = 0; i < FIXTURE_MODULES; i++) {
    fs.mkdirSync(path.join(root, `src/mod${i}`), { recursive: true });
    fs.writeFileSync(path.join(root, `src/mod${i}/index.ts`), 'x\n'.repeat(400));
  }
}

/** A review section with prose, inline-code and link references, times, hosts and a code block. */
function section(i: number): string {
  const mod = i % FIXTURE_MODULES;
  return (
    `## Finding ${i}\n\n` +
    `**bug**: the handler in src/mod${mod}/index.ts:${(i % 300) + 1} retries forever at 10:30; see \`src/mod${mod}/index.ts#L${(i % 50) + 1}\` ` +
    `and [the caller](src/mod${(i + 1) % FIXTURE_MODULES}/index.ts:${(i % 400) + 1}). Also **src/missing${i % 7}.ts:3** and http://example.com/x.\n\n` +
    '```ts\nfunction retry(n: number) {\n  return n > 0 ? retry(n - 1) : 0; // src/ignored.ts:1\n}\n```\n\n' +
    '- one item with `package.json`\n- another, with localhost:8080 and v1.2:3\n\n'
  );
}

/** A typical review of about `bytes` (about 4 references per 400 bytes). */
export function typicalReview(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    parts.push(section(i));
    size += parts[parts.length - 1].length;
  }
  return parts.join('');
}

/** A dense review: `count` references, one list item each (about 35 bytes a reference). */
export function denseReview(count: number): string {
  const lines: string[] = ['# Every call site', ''];
  for (let i = 0; i < count; i++) lines.push(`- src/mod${i % FIXTURE_MODULES}/index.ts:${(i % 400) + 1} calls it`);
  return lines.join('\n') + '\n';
}

/** `![` repeated: markdown-it's label search made this quadratic. */
export function imageOpeners(count: number): string {
  return '!['.repeat(count);
}
