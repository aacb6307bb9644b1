import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
import type { FileReference } from '../../../shared/links';
import { toMarkdown } from '../../../shared/exchange/markdownExport';
import { diagnosticOf, toRdjsonl } from '../../../shared/exchange/rdjsonl';
import { FINGERPRINT_KEY, SOURCE_ROOT_ID, toSarif } from '../../../shared/exchange/sarifExport';
import { finding, sampleReview } from './sampleReview';

describe('toSarif', () => {
  const { log } = toSarif(sampleReview);
  const run = log.runs[0];
  const results = run.results!;

  it('is one run of Redline with a rule per kind of finding, each result pointing at its rule', () => {
    expect(log.version).toBe('2.1.0');
    expect(run.tool.driver).toMatchObject({ name: 'Redline', version: '0.1.0' });
    const rules = run.tool.driver.rules!;
    expect(rules.map((rule) => rule.id)).toEqual([
      'redline-blocking',
      'redline-bug',
      'redline-risk',
      'redline-suggestion',
      'redline-nit',
      'redline-question',
      'redline-praise',
      'redline-unlabelled',
    ]);
    for (const result of results) expect(rules[result.ruleIndex!].id).toBe(result.ruleId);
  });

  it('maps each severity to a level, praise being informational', () => {
    expect(results.map((result) => [result.ruleId, result.level, result.kind])).toEqual([
      ['redline-blocking', 'error', undefined],
      ['redline-bug', 'error', undefined],
      ['redline-risk', 'warning', undefined],
      ['redline-suggestion', 'note', undefined],
      ['redline-nit', 'note', undefined],
      ['redline-question', 'note', undefined],
      ['redline-praise', 'none', 'informational'],
      ['redline-unlabelled', 'warning', undefined],
    ]);
  });

  it('places each result at its current lines, relative to the repository root, which the run names as a folder URI', () => {
    expect(run.originalUriBaseIds).toEqual({ [SOURCE_ROOT_ID]: { uri: 'file:///home/dev/project/' } });
    expect(results.map((result) => result.locations![0].physicalLocation)).toEqual(
      sampleReview.findings.map((f) => ({
        artifactLocation: { uri: expect.any(String), uriBaseId: SOURCE_ROOT_ID },
        region: { startLine: f.line, endLine: f.endLine },
      })),
    );
    expect(results[3].locations![0].physicalLocation!.artifactLocation!.uri).toBe('src/a%20b/name%20with%20spaces.ts');
    expect(results[4].locations![0].physicalLocation!.artifactLocation!.uri).toBe('src/%C3%BCn%C3%AFcode.ts');
  });

  it('writes the message without its list marker, with braces doubled as SARIF asks', () => {
    expect(results[0].message.text).toBe('**blocking**: the retry never stops `src/retry.ts:42`');
    expect(results[3].message.text).toContain('use a constant for {{0}} and {{{{braces}}}}');
  });

  it('carries the fingerprint, and the answers: a suppression for each one that is not open, replies and state in properties', () => {
    expect(results.map((result) => result.partialFingerprints![FINGERPRINT_KEY])).toEqual(
      sampleReview.findings.map((f) => f.fingerprint),
    );
    expect(results.map((result) => result.suppressions?.[0])).toEqual([
      undefined,
      { kind: 'external', status: 'accepted', justification: 'Marked resolved in Redline. Fixed in the last commit.' },
      { kind: 'external', status: 'accepted', justification: "Marked won't fix in Redline." },
      undefined,
      { kind: 'external', status: 'accepted', justification: 'Accepted in Redline.' },
      undefined,
      undefined,
      undefined,
    ]);
    expect(results[0].properties).toEqual({
      'redline.id': sampleReview.findings[0].id,
      'redline.severity': 'blocking',
      'redline.state': 'open',
      'redline.stale': false,
      'redline.replies': [{ text: 'Good catch.\nFixing it now.', at: '2026-11-27T07:00:00.000Z' }],
    });
    expect(results[5].properties?.['redline.stale']).toBe(true);
  });

  it('writes a suggestion as a fix that replaces the finding’s lines', () => {
    expect(results[3].fixes).toEqual([
      {
        description: { text: 'Suggested change' },
        artifactChanges: [
          {
            artifactLocation: { uri: 'src/a%20b/name%20with%20spaces.ts', uriBaseId: SOURCE_ROOT_ID },
            replacements: [
              { deletedRegion: { startLine: 5, endLine: 5 }, insertedContent: { text: 'const LIMIT = 5;' } },
            ],
          },
        ],
      },
    ]);
  });

  it('starts a finding the window could not place (line 0) at the file’s first line, in both formats', () => {
    const unplaced = {
      ...sampleReview,
      findings: [{ ...finding({ severity: 'bug', title: 't', file: 'a.ts', line: 1 }), line: 0, endLine: 0 }],
    };
    expect(toSarif(unplaced).log.runs[0].results![0].locations![0].physicalLocation!.region).toEqual({
      startLine: 1,
      endLine: 1,
    });
    expect(JSON.parse(toRdjsonl(unplaced)).location.range).toEqual({ start: { line: 1 }, end: { line: 1 } });
  });

  it('names a file outside the repository root by its own file: URI', () => {
    const outside = toSarif({
      ...sampleReview,
      findings: [finding({ severity: 'bug', title: 't', file: '/opt/lib/x.ts', line: 1 })],
    }).log;
    expect(outside.runs[0].results![0].locations![0].physicalLocation!.artifactLocation).toEqual({
      uri: 'file:///opt/lib/x.ts',
    });
  });
});

describe('toRdjsonl', () => {
  it('writes a line per finding with its severity, its lines (line-wise, as reviewdog reads a range without columns) and its suggestions', () => {
    const lines = toRdjsonl(sampleReview)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((d) => d.severity)).toEqual([
      'ERROR',
      'ERROR',
      'WARNING',
      'INFO',
      'INFO',
      'INFO',
      'INFO',
      'WARNING',
    ]);
    expect(lines[0]).toEqual({
      message: '**blocking**: the retry never stops `src/retry.ts:42`',
      location: { path: 'src/retry.ts', range: { start: { line: 42 }, end: { line: 47 } } },
      severity: 'ERROR',
      source: { name: 'redline', url: 'https://github.com/redline-dev/redline' },
      code: { value: 'blocking' },
    });
    expect(lines[3].suggestions).toEqual([
      { range: { start: { line: 5 }, end: { line: 5 } }, text: 'const LIMIT = 5;' },
    ]);
  });

  it('keeps a message of several lines on one line of JSON, and an empty review empty', () => {
    const body = finding({ severity: null, title: 'x', file: 'a.ts', line: 1, body: 'second\nthird' });
    expect(toRdjsonl({ ...sampleReview, findings: [body] }).split('\n')).toHaveLength(2);
    expect(diagnosticOf(body).message).toBe('x `a.ts:1`\nsecond\nthird');
    expect(toRdjsonl({ ...sampleReview, findings: [] })).toBe('');
  });
});

describe('toMarkdown', () => {
  const markdown = toMarkdown(sampleReview);

  it('is the review, then each finding’s place now, answer and replies', () => {
    expect(markdown.startsWith(sampleReview.markdown)).toBe(true);
    expect(markdown).toContain('## Findings and answers (8)');
    expect(markdown).toContain("5 open, 1 resolved, 1 won't fix, 1 accepted.");
    expect(markdown).toContain(
      '### Open · Blocking · `src/retry.ts:42-47` — the retry never stops\n\n> **Reply**, 2026-11-27T07:00:00.000Z:\n>\n> Good catch.\n> Fixing it now.',
    );
    expect(markdown).toContain(
      '### Open · Question · `src/retry.ts:60` (the code it pointed at has changed) — why *twice*?',
    );
    expect(markdown).toContain("<sub>Exported from Redline 0.1.0 of Claude Code's review, revision 3.</sub>");
  });

  it('presented to Redline again, has the review’s findings and no copies of them', async () => {
    const everyFile: Resolver = {
      resolve: (ref: FileReference) => ({ status: 'resolved', absolutePath: `/w/${ref.path}`, lineCount: 100 }),
    };
    const again = await renderReview(markdown, everyFile);
    const original = await renderReview(sampleReview.markdown, everyFile);
    expect(again.findings.map((f) => f.id)).toEqual(original.findings.map((f) => f.id));
  });

  it('gives a review without a heading its title, and a review without findings no findings section', () => {
    const bare = toMarkdown({ ...sampleReview, markdown: 'Looks fine.', findings: [] });
    expect(bare).toBe(
      "# Review of the retry loop\n\nLooks fine.\n\n<sub>Exported from Redline 0.1.0 of Claude Code's review, revision 3.</sub>\n",
    );
  });
});
