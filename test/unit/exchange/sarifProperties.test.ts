// Properties over many reviews and logs: the round trip keeps what it promises for any review whose
// files the link grammar can name, and no log, however made, gets anything from the import but a
// review or a SarifImportError.

import fc from 'fast-check';
import { labelOf } from '../../../shared/findingLabel';
import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
import { findingFingerprint, type ExportedFinding, type ExportedReview } from '../../../shared/exchange/exportedReview';
import { toSarif } from '../../../shared/exchange/sarifExport';
import { fromSarif, SarifImportError } from '../../../shared/exchange/sarifImport';
import { FINDING_SEVERITIES, FINDING_STATES } from '../../../shared/findingTerms';
import type { FileReference } from '../../../shared/links';
import { sampleReview } from './sampleReview';

const segment = fc.stringMatching(/^[A-Za-z0-9ü][A-Za-z0-9ü _.-]{0,8}[A-Za-z0-9]$/).filter((s) => !s.includes('..'));
const file = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 3 }), fc.constantFrom('ts', 'py', 'md', 'c'))
  .map(([dirs, ext]) => [...dirs, `f.${ext}`].join('/'));
const text = fc.string({ unit: 'grapheme', maxLength: 60 });

const finding: fc.Arbitrary<ExportedFinding> = fc
  .record({
    severity: fc.constantFrom(...FINDING_SEVERITIES, null),
    title: fc.oneof(
      text,
      fc.constantFrom('Bugs hide here', 'nit: a label in the title', '**risk** without a colon', 'praise', 'question?'),
    ),
    body: fc.array(
      fc.oneof(
        text,
        fc.constantFrom(
          '```',
          '```suggestion',
          '~~~',
          '    code',
          '      deeper code',
          ' one space',
          '',
          '# heading',
          '- item',
          '1) item',
          '> quoted',
          '{0} {{x}}',
        ),
      ),
      { maxLength: 6 },
    ),
    file,
    line: fc.integer({ min: 1, max: 5000 }),
    span: fc.integer({ min: 0, max: 40 }),
    state: fc.constantFrom(...FINDING_STATES),
    stale: fc.boolean(),
    replies: fc.array(fc.record({ text, at: fc.constant('2026-11-27T07:00:00.000Z') }), { maxLength: 3 }),
  })
  .map(({ severity, title, body, file, line, span, state, stale, replies }) => {
    const label = severity === null ? '' : `**${severity}**: `;
    const markdown = [`- ${label}${title.replace(/\s+/g, ' ')}`, ...body.map((l) => `  ${l}`)].join('\n');
    return {
      id: 'f-unset',
      fingerprint: findingFingerprint(file, title),
      severity,
      title,
      markdown,
      file,
      line,
      endLine: line + span,
      state,
      stale,
      replies,
      suggestions: [],
    };
  });

const review: fc.Arbitrary<ExportedReview> = fc.array(finding, { maxLength: 12 }).map((findings) => ({
  ...sampleReview,
  findings: findings.map((f, i) => ({ ...f, id: `f-id${i}` })),
}));

const everyFile: Resolver = {
  resolve: (ref: FileReference) => ({ status: 'resolved', absolutePath: `/w/${ref.path}`, lineCount: 10_000 }),
};

describe('SARIF properties', () => {
  it('the round trip keeps every finding, its place, state, replies, id and fingerprint, for any review', () => {
    fc.assert(
      fc.property(review, (exported) => {
        const imported = fromSarif(JSON.stringify(toSarif(exported).log));
        expect(
          imported.findings.map(({ fingerprint, id, file, line, endLine, state, replies }) => ({
            fingerprint,
            id,
            file,
            line,
            endLine,
            state,
            replies,
          })),
        ).toEqual(
          exported.findings.map(({ fingerprint, id, file, line, endLine, state, replies }) => ({
            fingerprint,
            id,
            file,
            line,
            endLine,
            state,
            replies,
          })),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('the renderer finds each imported finding at the line the import says, whatever its message holds', async () => {
    await fc.assert(
      fc.asyncProperty(review, async (exported) => {
        const imported = fromSarif(JSON.stringify(toSarif(exported).log));
        const rendered = (await renderReview(imported.markdown, everyFile)).findings;
        expect(
          rendered.map(({ reviewLine, line, endLine, severity }) => ({ reviewLine, line, endLine, severity })),
        ).toEqual(
          imported.findings.map((f, i) => ({
            reviewLine: f.markdownLine,
            line: f.line,
            endLine: f.endLine,
            severity: exported.findings[i].severity,
          })),
        );
        // The title says what the original's said: the window's fingerprint of it is the same, unless it was cut.
        rendered.forEach((found, i) => {
          const original = exported.findings[i];
          const originalTitle = labelOf(original.markdown).title;
          if (found.title.endsWith('…') || originalTitle.endsWith('…')) return;
          expect(findingFingerprint(original.file, found.title)).toBe(findingFingerprint(original.file, originalTitle));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('any JSON, and any valid log with a value replaced, gives a review or a SarifImportError, never another error', () => {
    const valid = toSarif(sampleReview).log as unknown as Record<string, unknown>;
    const mutated = fc
      .tuple(
        fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.nat(20)), { minLength: 1, maxLength: 8 }),
        fc.jsonValue({ maxDepth: 3 }),
      )
      .map(([path, value]) => {
        const copy = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
        let node: unknown = copy;
        for (const key of path.slice(0, -1)) {
          if (typeof node !== 'object' || node === null) break;
          const keys = Object.keys(node);
          node = (node as Record<string, unknown>)[
            typeof key === 'number' ? (keys[key % Math.max(1, keys.length)] ?? key) : key
          ];
        }
        if (typeof node === 'object' && node !== null) {
          const keys = Object.keys(node);
          const last = path[path.length - 1];
          (node as Record<string, unknown>)[
            typeof last === 'number' ? (keys[last % Math.max(1, keys.length)] ?? String(last)) : last
          ] = value;
        }
        return JSON.stringify(copy);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 4 }), mutated), (log) => {
        try {
          const imported = fromSarif(log);
          expect(typeof imported.markdown).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(SarifImportError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
