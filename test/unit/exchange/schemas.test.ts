import { readFileSync } from 'fs';
import { toRdjsonl } from '../../../shared/exchange/rdjsonl';
import { MAX_SARIF_RESULTS, toSarif } from '../../../shared/exchange/sarifExport';
import { CHANGED_SINCE_DRAFT_04, draft04Schema, SARIF_SCHEMA_FILE, validatorOf } from './draft04';
import { RDJSON_DIAGNOSTIC_SCHEMA } from './rdjsonSchema';
import { finding, sampleReview } from './sampleReview';

const sarifSchema = validatorOf(draft04Schema(SARIF_SCHEMA_FILE));
const diagnosticSchema = validatorOf(RDJSON_DIAGNOSTIC_SCHEMA);

describe('the exports against the published schemas', () => {
  it('reads the draft-04 SARIF schema as draft-07 only because it uses nothing that changed between the two', () => {
    const text = readFileSync(SARIF_SCHEMA_FILE, 'utf8');
    expect(text).toContain('Version 2.1.0');
    for (const keyword of CHANGED_SINCE_DRAFT_04) expect(text).not.toContain(`"${keyword}"`);
  });

  it('the schemas refuse what they should, so that passing them means something', () => {
    const { log } = toSarif(sampleReview);
    expect(sarifSchema({ ...log, version: '2.0.0' })).toBe(false);
    expect(sarifSchema({ ...log, runs: [{ ...log.runs[0], results: [{ message: {}, level: 'fatal' }] }] })).toBe(false);
    expect(diagnosticSchema({ message: 'x', severity: 'FATAL' })).toBe(false);
    expect(diagnosticSchema({ message: 'x', location: { path: 'a', range: { start: { line: 'one' } } } })).toBe(false);
  });

  it('toSarif writes a valid SARIF 2.1.0 log', () => {
    const { log } = toSarif(sampleReview);
    expect(sarifSchema(log) ? [] : sarifSchema.errors).toEqual([]);
  });

  it('toSarif keeps within GitHub’s results per run, says what it cut, and stays valid', () => {
    const many = Array.from({ length: MAX_SARIF_RESULTS + 7 }, (_, i) =>
      finding({ severity: 'nit', title: `nit ${i}`, file: 'src/a.ts', line: i + 1 }),
    );
    const { log, omitted } = toSarif({ ...sampleReview, findings: many });
    expect(omitted).toBe(7);
    expect(log.runs[0].results).toHaveLength(MAX_SARIF_RESULTS);
    expect(log.runs[0].properties?.['redline.omittedResults']).toBe(7);
    expect(log.runs[0].invocations?.[0].toolExecutionNotifications?.[0].message.text).toContain(
      "7 of the review's 25007 findings",
    );
    expect(sarifSchema(log) ? [] : sarifSchema.errors?.slice(0, 3)).toEqual([]);
  });

  it('toRdjsonl writes one reviewdog Diagnostic per line', () => {
    const lines = toRdjsonl(sampleReview).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(sampleReview.findings.length);
    for (const line of lines) {
      const diagnostic: unknown = JSON.parse(line);
      expect(diagnosticSchema(diagnostic) ? [] : diagnosticSchema.errors).toEqual([]);
    }
  });
});
