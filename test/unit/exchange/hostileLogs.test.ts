// Logs made to cost: the import reads each within bounds that do not depend on the log. Every
// array it walks counts against one budget (sarifBounds.ts), placeholders stop filling at a
// message's limit as they go, and nothing a log says can split the review's lines.

import { MAX_EXAMINED_VALUES } from '../../../shared/exchange/sarifBounds';
import { MAX_MESSAGE_CHARS } from '../../../shared/exchange/sarifMessages';
import { fromSarif } from '../../../shared/exchange/sarifImport';

const MiB = 1024 * 1024;

const logOf = (results: string, driver = '{"name":"Linter"}') =>
  `{"version":"2.1.0","runs":[{"tool":{"driver":${driver}},"results":${results}}]}`;

/** The counts the review's notes give, by what they say. */
function notes(markdown: string): { unreadable: number; notRead: number } {
  const number = (pattern: RegExp) => Number(pattern.exec(markdown)?.[1]?.replace(/,/g, '') ?? 0);
  return {
    unreadable: number(/> ([\d,]+) results? (?:was|were) left out because/),
    notRead: number(/> ([\d,]+) more results? (?:was|were) not read/),
  };
}

describe('results that are not results', () => {
  it('are counted against the budget too: past it, the rest of a 4 MiB log of zeros is counted, not read', () => {
    const count = 2 * MiB;
    const text = logOf(`[${new Array(count).fill('0').join(',')}]`);
    expect(text.length).toBeGreaterThan(4 * MiB);
    const { markdown, findings } = fromSarif(text);
    expect(findings).toEqual([]);
    const { unreadable, notRead } = notes(markdown);
    expect(unreadable).toBeLessThanOrEqual(MAX_EXAMINED_VALUES);
    expect(unreadable + notRead).toBe(count);
    expect(markdown).toContain('Redline stops reading a log after examining 200,000 of its values');
  });
});

describe('placeholders', () => {
  it('stop filling at the message limit as they go: {0} a hundred thousand times with a 2 KB argument', () => {
    const template = '{0}'.repeat(100_000);
    const result = `{"ruleId":"r","message":{"text":"${template}","arguments":["${'x'.repeat(2048)}"]},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.ts"},"region":{"startLine":1}}}]}`;
    const { markdown, findings } = fromSarif(logOf(`[${result}]`));
    expect(findings).toHaveLength(1);
    expect(markdown.length).toBeLessThan(MAX_MESSAGE_CHARS + 4096);
    expect(markdown).toContain(`… (cut at ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters)`);
  });
});

describe('one result that holds a million of something', () => {
  it('a million locations, arguments and fingerprints: a few of each are read, and the result is kept', () => {
    const million = (item: string) => `[${new Array(1_000_000).fill(item).join(',')}]`;
    const fingerprints = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":"v"`).join(',')}}`;
    const result = `{"ruleId":"r","message":{"text":"{0} and {1}","arguments":${million('"a"')}},"partialFingerprints":${fingerprints},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.ts"},"region":{"startLine":3}}},${million('{}').slice(1)}}`;
    const imported = fromSarif(logOf(`[${result}]`));
    expect(imported.findings.map(({ file, line }) => [file, line])).toEqual([['a.ts', 3]]);
    expect(imported.markdown).toContain('`a.ts:3` a and a');
    expect(Object.keys(imported.log.results[0].partialFingerprints ?? {}).length).toBeLessThanOrEqual(32);
  });
});

describe('a newline in an artifact URI', () => {
  it('(`%0A`) cannot split a list item: every finding is recorded at its own item, and no item is planted', () => {
    const results = [
      { ruleId: 'r', message: { text: 'first' }, locations: [at('src/a.ts%0A- **bug**: `b.ts:9` planted', 1)] },
      { ruleId: 'r', message: { text: 'second' }, locations: [at('b.ts', 2)] },
      { ruleId: 'r', message: { text: 'third' }, locations: [at('c.ts', 3)] },
    ];
    const { markdown, findings } = fromSarif(
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'T' } }, results }] }),
    );
    const lines = markdown.split('\n');
    expect(findings.map((finding) => lines[finding.markdownLine - 1])).toEqual([
      '- **risk**: `b.ts:2` second',
      '- **risk**: `c.ts:3` third',
    ]);
    expect(lines.filter((line) => line.startsWith('- '))).toHaveLength(3);
    expect(markdown).not.toMatch(/^- \*\*bug\*\*: `b\.ts:9`/m);
    expect(markdown).toContain(
      '- **risk**: (no file here, a control character in its path: src/a.ts%0A- \\*\\*bug\\*\\*: \\`b.ts:9\\` planted) first',
    );
  });
});

describe('bags and roots of a million keys', () => {
  it('are looked up by name, never walked', () => {
    const bag = `{${Array.from({ length: 100_000 }, (_, i) => `"p${i}":${i}`).join(',')}}`;
    const result = `{"ruleId":"r","message":{"text":"m"},"properties":${bag},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"x.ts","uriBaseId":"SRC"},"region":{"startLine":1}}}]}`;
    const text = `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"T"}},"originalUriBaseIds":${bag.replace('"p0":0', '"SRC":{"uri":"src/"}')},"properties":${bag},"results":[${result}]}]}`;
    const { findings } = fromSarif(text);
    expect(findings.map((finding) => finding.file)).toEqual(['src/x.ts']);
  });
});

function at(uri: string, startLine: number) {
  return { physicalLocation: { artifactLocation: { uri }, region: { startLine } } };
}
