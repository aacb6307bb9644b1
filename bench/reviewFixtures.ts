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

/** Where a generated finding points: a file of the workspace and how many lines it has. */
export type FindingPlace = (i: number) => { readonly file: string; readonly lines: number };

/** src/mod<i>/index.ts, as written by writeFixtureFiles. */
export const fixtureModule: FindingPlace = (i) => ({ file: `src/mod${i % FIXTURE_MODULES}/index.ts`, lines: 400 });

const SEVERITIES = ['bug', 'risk', 'nit', 'suggestion', 'question'] as const;

/**
 * One finding as assistants write them (issue 33's shape): a heading, list items and a paragraph
 * with severity labels, references in prose, in code spans and in links, a broken one, a URL,
 * and a `ts` code block.
 */
function finding(i: number, place: FindingPlace): string {
  const { file, lines } = place(i);
  const { file: other } = place(i + 1);
  const line = (i % (lines - 5)) + 1;
  return (
    `## ${i + 1}. Retries without a limit in ${file}\n\n` +
    `- **${SEVERITIES[i % SEVERITIES.length]}**: the handler at ${file}:${line} retries forever; compare \`${file}:${line}-${line + 2}\` and [the caller](${other}#L${(i % 20) + 1}).\n` +
    `- **risk**: \`src/missing${i % 7}.ts:3\` does not exist any more (see https://example.com/issues/${i}).\n\n` +
    `**nit**: the name at ${file}:${line + 1} says nothing about the unit; \`retry()\` is called with seconds.\n\n` +
    '```ts\n' +
    `export function retry${i}(attempts: number, delayMs = 100): Promise<void> {\n` +
    '  // src/ignored.ts:1 in a comment is not a reference\n' +
    '  return attempts > 0 ? wait(delayMs).then(() => retry(attempts - 1, delayMs * 2)) : Promise.resolve();\n' +
    '}\n```\n\n'
  );
}

/**
 * A review of findings of about `bytes` (UTF-16 units, all ASCII), for the render and delivery
 * figures; `title` makes reviews of one size differ, so that no cache serves a repeat.
 */
export function findingsReview(bytes: number, place: FindingPlace = fixtureModule, title = 'Review'): string {
  const parts = [`# ${title}\n\nThree kinds of problem below; the first matters most.\n\n`];
  let size = parts[0].length;
  for (let i = 0; size < bytes; i++) {
    parts.push(finding(i, place));
    size += parts[parts.length - 1].length;
  }
  return parts.join('').slice(0, bytes);
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

/**
 * The audit's inputs that the budget before the parse let through (issue 32's table), at about
 * `bytes` each: every one is a single paragraph or table that markdown-it turns into millions of
 * tokens. The render budget must refuse each one quickly, or cut it into blocks the panel can lay out.
 */
export const AUDIT_ROWS: ReadonlyArray<{ readonly name: string; readonly make: (bytes: number) => string }> = [
  { name: '`~~a~~ ` repeated', make: (bytes) => repeatTo('~~a~~ ', bytes) },
  { name: '`a\\` + newline (hard breaks)', make: (bytes) => repeatTo('a\\\n', bytes) },
  { name: '`<aa:> ` autolinks', make: (bytes) => repeatTo('<aa:> ', bytes) },
  { name: 'one paragraph of `a` lines', make: (bytes) => repeatTo('a\n', bytes) },
  { name: 'prose file references (`f1.ts:1 …`)', make: proseReferences },
  { name: 'a table of 60,000 columns', make: (bytes) => wideTable(60_000, bytes) },
];

function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
}

/** `f<i>.ts:<line>` words, one paragraph: each becomes a link. */
function proseReferences(bytes: number): string {
  const words: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const word = `f${i % 1000}.ts:${(i % 90) + 1} `;
    words.push(word);
    size += word.length;
  }
  return words.join('');
}

/** A header and delimiter row of `columns` cells, then one-cell rows (markdown-it fills each to `columns`) up to `bytes`. */
function wideTable(columns: number, bytes: number): string {
  const head = `|${'a|'.repeat(columns)}\n|${'-|'.repeat(columns)}\n`;
  return head + '|b\n'.repeat(Math.max(1, Math.floor((bytes - head.length) / 3)));
}
