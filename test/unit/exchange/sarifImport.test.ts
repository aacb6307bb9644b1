import { fromSarif, SarifImportError } from '../../../shared/exchange/sarifImport';
import { MAX_FINDINGS } from '../../../shared/protocol';

/** A log of one run of `tool` with these results, and whatever else the run should have. */
const logOf = (
  results: unknown[],
  run: Record<string, unknown> = {},
  tool: Record<string, unknown> = { name: 'Linter' },
) => JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: tool }, results, ...run }] });

const at = (uri: string, startLine?: number, endLine?: number, extra: Record<string, unknown> = {}) => ({
  physicalLocation: {
    artifactLocation: { uri, ...extra },
    ...(startLine === undefined ? {} : { region: { startLine, endLine } }),
  },
});

const result = (text: string, locations: unknown[], more: Record<string, unknown> = {}) => ({
  ruleId: 'r1',
  message: { text },
  locations,
  ...more,
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SarifImportError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('fromSarif: where a result points', () => {
  it('keeps a relative URI relative, through a chain of relative uriBaseIds, decoded', () => {
    const log = logOf([result('a', [at('lib/a%20b.ts', 3, 5, { uriBaseId: 'SRC' })])], {
      originalUriBaseIds: { ROOT: { uri: 'file:///home/ci/repo/' }, SRC: { uri: 'packages/core/', uriBaseId: 'ROOT' } },
    });
    expect(fromSarif(log).findings.map(({ file, line, endLine }) => ({ file, line, endLine }))).toEqual([
      { file: 'packages/core/lib/a b.ts', line: 3, endLine: 5 },
    ]);
  });

  it('makes an absolute file: URI under one of the run’s roots relative to it, and keeps any other absolute', () => {
    const log = logOf(
      [
        result('a', [at('file:///home/ci/repo/src/a.ts', 1)]),
        result('b', [at('file:///elsewhere/b.ts', 2)]),
        result('c', [at('file:///C:/work/c.ts', 4)]),
      ],
      {
        originalUriBaseIds: { SRCROOT: { uri: 'file:///home/ci/repo/' } },
      },
    );
    expect(fromSarif(log).findings.map((finding) => finding.file)).toEqual([
      'src/a.ts',
      '/elsewhere/b.ts',
      'C:/work/c.ts',
    ]);
  });

  it('reads a location given by its artifact’s index, and a file with no region as its first line', () => {
    const log = logOf([result('a', [{ physicalLocation: { artifactLocation: { index: 1 } } }])], {
      artifacts: [{ location: { uri: 'x.ts' } }, { location: { uri: 'src/y.ts' } }],
    });
    expect(fromSarif(log).findings.map(({ file, line, endLine }) => ({ file, line, endLine }))).toEqual([
      { file: 'src/y.ts', line: 1, endLine: 1 },
    ]);
  });

  it('lists a result without a file (logical locations only, a remote URI, a bad escape) as an item that is not a finding', () => {
    const log = logOf([
      result('only logical', [{ logicalLocations: [{ fullyQualifiedName: 'Acme.Billing.Charge' }] }]),
      result('remote', [at('https://example.com/a.ts', 3)]),
      result('remote host', [at('file://server/share/a.ts', 3)]),
      result('bad escape', [at('src/%E0%A4%A.ts', 3)]),
      result('artifact index out of range', [{ physicalLocation: { artifactLocation: { index: 9 } } }]),
    ]);
    const imported = fromSarif(log);
    expect(imported.findings).toEqual([]);
    expect(imported.markdown).toContain('- **risk**: (in Acme.Billing.Charge) only logical');
    expect(imported.markdown).toContain(
      '- **risk**: (no file here, a URI that is not a file: https://example.com/a.ts) remote',
    );
    expect(imported.markdown).toContain('- **risk**: (no location) artifact index out of range');
  });
});

describe('fromSarif: a root file without an extension', () => {
  it('is a finding, written as ./gradlew so that the link grammar reads it as a path', () => {
    const { markdown, findings } = fromSarif(logOf([result('Double quote this.', [at('gradlew', 30)])]));
    expect(findings.map(({ file, line }) => [file, line])).toEqual([['gradlew', 30]]);
    expect(markdown).toContain('- **risk**: `./gradlew:30` Double quote this.');
  });
});

describe('fromSarif: what a result says', () => {
  it('labels another tool’s result by its kind, its level, else its rule’s default level', () => {
    const results = [
      { ruleId: 'e', level: 'error', message: { text: 'e' } },
      { ruleId: 'w', level: 'warning', message: { text: 'w' } },
      { ruleId: 'n', level: 'note', message: { text: 'n' } },
      { ruleId: 'none', level: 'none', message: { text: 'none' } },
      { ruleId: 'p', kind: 'pass', message: { text: 'p' } },
      { ruleId: 'r', kind: 'review', message: { text: 'r' } },
      { ruleId: 'i', kind: 'informational', message: { text: 'i' } },
      { ruleId: 'd', message: { text: 'd' } },
      { ruleId: 'odd', level: 'fatal', message: { text: 'odd' } },
    ].map((r) => ({ ...r, locations: [at(`src/${r.ruleId}.ts`, 1)] }));
    const rules = [{ id: 'd', defaultConfiguration: { level: 'error' } }];
    const markdown = fromSarif(logOf(results, {}, { name: 'Linter', rules })).markdown;
    const labels = Object.fromEntries(
      [...markdown.matchAll(/^- \*\*(\w+)\*\*: `src\/([\w]+)\.ts:1`/gm)].map((m) => [m[2], m[1]]),
    );
    expect(labels).toEqual({
      e: 'bug',
      w: 'risk',
      n: 'suggestion',
      none: 'nit',
      p: 'praise',
      r: 'question',
      i: 'nit',
      d: 'bug',
      odd: 'risk',
    });
  });

  it('fills {0} placeholders from the arguments, reads doubled braces as one, and prefers the markdown form', () => {
    const log = logOf([
      result('', [at('a.ts', 1)], {
        message: { text: 'Variable {0} is unused in {{ {1} }}; {2} stays', arguments: ['x', 'f'] },
      }),
      result('', [at('b.ts', 1)], { message: { text: 'plain', markdown: 'the **markdown** form' } }),
      result('', [at('c.ts', 1)], { message: { text: 'Data flows from [the request](1) to [a query](2).' } }),
    ]);
    const { markdown } = fromSarif(log);
    expect(markdown).toContain('`a.ts:1` Variable x is unused in { f }; {2} stays');
    expect(markdown).toContain('`b.ts:1` the **markdown** form');
    expect(markdown).toContain('`c.ts:1` Data flows from the request to a query.');
  });

  it('looks a message up by id in its rule’s message strings, the rule found in a tool extension (as CodeQL writes it)', () => {
    const log = JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: { name: 'Analyzer', semanticVersion: '2.19.0' },
            extensions: [
              {
                name: 'pack',
                rules: [
                  {
                    id: 'js/sql-injection',
                    shortDescription: { text: 'Database query built from user-controlled sources' },
                    messageStrings: { default: { text: 'Query depends on {0}.' } },
                  },
                ],
              },
            ],
          },
          results: [
            {
              rule: { id: 'js/sql-injection', index: 0, toolComponent: { index: 0 } },
              level: 'error',
              message: { id: 'default', arguments: ['a user-provided value'] },
              locations: [at('server/db.js', 12, 14, { uriBaseId: '%SRCROOT%' })],
            },
          ],
        },
      ],
    });
    const { markdown, findings } = fromSarif(log);
    expect(markdown).toContain('## Analyzer 2.19.0');
    expect(markdown).toContain('### js/sql-injection — Database query built from user-controlled sources');
    expect(markdown).toContain('- **bug**: `server/db.js:12-14` Query depends on a user-provided value.');
    expect(findings.map(({ file, line, endLine }) => ({ file, line, endLine }))).toEqual([
      { file: 'server/db.js', line: 12, endLine: 14 },
    ]);
  });

  it('indents a message of several lines into its item, so that nothing in it ends the item', () => {
    const { markdown, findings } = fromSarif(
      logOf([result('\n\nFirst line\n# not a heading of the review\n```\ncode\n```\n\n- a list', [at('a.ts', 2)])]),
    );
    const lines = markdown.split('\n');
    const item = findings[0].markdownLine;
    expect(lines.slice(item - 1, item + 6)).toEqual([
      '- **risk**: `a.ts:2` First line',
      '  # not a heading of the review',
      '  ```',
      '  code',
      '  ```',
      '',
      '  - a list',
    ]);
  });

  it('gives the user’s answer another tool wrote: an accepted suppression is won’t fix, an absent baseline is resolved', () => {
    const log = logOf([
      result('a', [at('a.ts', 1)], { suppressions: [{ kind: 'inSource' }] }),
      result('b', [at('b.ts', 1)], { suppressions: [{ kind: 'external', status: 'underReview' }] }),
      result('c', [at('c.ts', 1)], { baselineState: 'absent' }),
      result('d', [at('d.ts', 1)], { baselineState: 'new' }),
    ]);
    expect(fromSarif(log).findings.map((finding) => finding.state)).toEqual(['wont-fix', 'open', 'resolved', 'open']);
  });

  it('trusts Redline’s own properties only as far as they check out', () => {
    const tampered = result('- **bug**: x', [at('a.ts', 1)], {
      ruleId: 'redline-bug',
      partialFingerprints: { 'redlineFindingFingerprint/v1': 'not-a-fingerprint' },
      properties: {
        'redline.id': '<script>',
        'redline.state': 'deleted',
        'redline.replies': [
          { text: 'ok', at: '2026-01-01T00:00:00Z' },
          { text: 5 },
          'no',
          { text: 'x'.repeat(20_000), at: 'now' },
        ],
      },
    });
    const [finding] = fromSarif(logOf([tampered], {}, { name: 'Redline' })).findings;
    expect(finding.id).toBeUndefined();
    expect(finding.state).toBe('open');
    expect(finding.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(finding.replies.map((reply) => reply.text.length)).toEqual([2, 16 * 1024]);
  });
});

describe('fromSarif: an untrusted log', () => {
  it('lists at most as many results as the renderer makes findings, and says how many it left out', () => {
    const results = Array.from({ length: MAX_FINDINGS + 5 }, (_, i) => result(`r${i}`, [at('a.ts', i + 1)]));
    const imported = fromSarif(logOf(results));
    expect(imported.findings).toHaveLength(MAX_FINDINGS);
    expect(imported.markdown).toContain('> 5 more results were left out: a review lists at most 1,000.');
  });

  it('leaves out the results that are not valid, says so, and keeps the rest; line 0 is the whole file', () => {
    const imported = fromSarif(
      logOf([
        result('ok', [at('a.ts', 1)]),
        { message: 'not an object' },
        result('zero line', [at('a.ts', 0)]),
        null,
        result('ok too', [at('b.ts', 2)]),
      ]),
    );
    expect(imported.findings.map(({ file, fileLevel }) => [file, fileLevel])).toEqual([
      ['a.ts', false],
      ['a.ts', true],
      ['b.ts', false],
    ]);
    expect(imported.markdown).toContain('- **risk**: `a.ts` zero line');
    expect(imported.markdown).toContain('> 2 results were left out because they are not valid SARIF results.');
    expect(imported.markdown).not.toContain('The log has no results');
  });

  it('refuses, saying why and what to do: too large, not JSON, not SARIF, another version, a bad run', () => {
    expect(refusal(() => fromSarif(logOf([]), { maxBytes: 10 }))).toMatch(
      /^The SARIF log is \d+ bytes; the largest Redline opens is 10 bytes\. Open a smaller log/,
    );
    expect(refusal(() => fromSarif('{"version": "2.1.0", "runs": ['))).toMatch(
      /^The file is not JSON \(.*\)\. A SARIF log is a JSON file/,
    );
    expect(refusal(() => fromSarif('[1, 2]'))).toBe(
      'The file is not a SARIF log: log: Invalid input: expected object, received array.',
    );
    expect(refusal(() => fromSarif('{"version": "2.1.0"}'))).toMatch(/^The file is not a SARIF log: log\.runs: /);
    expect(refusal(() => fromSarif('{"version": "1.0.0", "runs": []}'))).toMatch(
      /^The log is SARIF "1\.0\.0"; Redline reads SARIF 2\.1\.0\. Convert it first/,
    );
    expect(refusal(() => fromSarif('{"version": "2.1.0", "runs": [{"tool": {}}]}'))).toMatch(
      /^The SARIF log has a run that is not valid: runs\[0\]\.tool\.driver: /,
    );
  });

  it('refuses a log whose review would be larger than a review may be, before writing all of it', () => {
    const results = Array.from({ length: 1000 }, (_, i) => result(`${'word '.repeat(2200)}${i}`, [at('a.ts', 1)]));
    expect(refusal(() => fromSarif(logOf(results)))).toMatch(
      /^The review made from this SARIF log would be more than 10\.0 MiB, the most a review may be\. Open a smaller log/,
    );
  });

  it('refuses a log whose review would cost more to show than the review budget allows, with the measure', () => {
    const results = Array.from({ length: 1000 }, (_, i) => result(`${'*a* '.repeat(300)}${i}`, [at('a.ts', 1)]));
    expect(refusal(() => fromSarif(logOf(results)))).toMatch(
      /^The review has about [\d,]+ inline marks .* so it was not shown\. Open a smaller log/,
    );
  });

  it('an empty log opens as a review that says it has no results', () => {
    const imported = fromSarif(logOf([]));
    expect(imported.findings).toEqual([]);
    expect(imported.markdown).toContain('> The log has no results.');
  });
});

describe('fromSarif: what only adds to a result', () => {
  it('reads as absent when it is malformed, and the result is kept', () => {
    // GitHub's API example writes a result's properties as an array of bags; others misspell more.
    const odd = result('kept', [at('a.ts', 3)], {
      properties: [{ 'github/alertNumber': 2 }],
      partialFingerprints: 'x',
      suppressions: {},
      baselineState: 7,
      rule: 'r1',
      ruleIndex: -1,
    });
    const imported = fromSarif(logOf([odd]));
    expect(imported.findings.map(({ file, line, state }) => ({ file, line, state }))).toEqual([
      { file: 'a.ts', line: 3, state: 'open' },
    ]);
  });
});

describe('fromSarif: inputs that would make a careless reader slow', () => {
  // Each of these took time quadratic in its size in some regular expression; at these sizes a
  // quadratic reader would not finish within the test's timeout.
  const MiB = 1024 * 1024;

  it('a message of unclosed brackets, or of whitespace runs, is read in one pass', () => {
    // Cut to the longest message kept, then refused for what it would cost to show: each bracket may open a link.
    expect(refusal(() => fromSarif(logOf([result(`[${'['.repeat(2 * MiB)}`, [at('a.ts', 1)])])))).toMatch(
      /^The review has one block of about 32,7\d\d elements/,
    );
    const spaced = `first\nsecond${' '.repeat(2 * MiB)}x\n${'\t '.repeat(MiB)}`;
    const imported = fromSarif(logOf([result(spaced, [at('a.ts', 1)])]));
    expect(imported.markdown).toContain('  second');
  });

  it('a URI of question marks, a tool name and a rule id of megabytes, and deep nesting in a property bag', () => {
    const uri = `${'?'.repeat(2 * MiB)}\n`;
    const log = logOf(
      [result('m', [at(uri, 1)], { ruleId: 'r'.repeat(2 * MiB), properties: { deep: 'DEEP' } })],
      {},
      { name: ` ${'tool '.repeat(MiB / 2)}` },
    ).replace('"DEEP"', `${'['.repeat(5000)}${']'.repeat(5000)}`);
    const imported = fromSarif(log);
    expect(imported.findings).toEqual([]);
    expect(imported.title.length).toBeLessThanOrEqual(200 + ': SARIF results'.length);
  });

  it('JSON nested deeper than the parser can go is refused as not JSON', () => {
    expect(refusal(() => fromSarif(`{"version": "2.1.0", "runs": ${'['.repeat(1_000_000)}`))).toMatch(
      /^The file is not JSON/,
    );
  });
});

describe('fromSarif: what it says it left out', () => {
  it('counts in words that agree with the count', () => {
    const runs = Array.from({ length: 101 }, () => ({ tool: { driver: { name: 'T' } }, results: [] }));
    const { markdown } = fromSarif(
      JSON.stringify({ version: '2.1.0', runs: [{ ...runs[0], results: [null] }, ...runs.slice(1)] }),
    );
    expect(markdown).toContain('> 1 result was left out because it is not a valid SARIF result.');
    expect(markdown).toContain('> 1 more run was left out: Redline reads at most 100.');
  });
});

describe('fromSarif: a log Redline cut when it wrote it', () => {
  it('says how many findings the export left out, besides what the import leaves out', () => {
    const log = logOf(
      [result('a', [at('a.ts', 1)])],
      { properties: { 'redline.omittedResults': 7 } },
      { name: 'Redline' },
    );
    expect(fromSarif(log).markdown).toContain(
      '> 7 findings were already left out when Redline wrote the log (a run holds at most 25,000 results).',
    );
    const tampered = logOf(
      [result('a', [at('a.ts', 1)])],
      { properties: { 'redline.omittedResults': 'many' } },
      { name: 'Redline' },
    );
    expect(fromSarif(tampered).markdown).not.toContain('already left out');
  });
});
