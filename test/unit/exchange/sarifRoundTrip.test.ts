import { labelOf } from '../../../shared/findingLabel';
import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
import { findingFingerprint } from '../../../shared/exchange/exportedReview';
import { fromSarif } from '../../../shared/exchange/sarifImport';
import { toSarif } from '../../../shared/exchange/sarifExport';
import type { FileReference } from '../../../shared/links';
import { sampleReview } from './sampleReview';

/** Every file of the sample review exists with 100 lines, under /w. */
const workspace: Resolver = {
  resolve: (ref: FileReference) => ({ status: 'resolved', absolutePath: `/w/${ref.path}`, lineCount: 100 }),
};

describe('Redline → SARIF → Redline', () => {
  it('keeps every finding, its place, state, replies and id', () => {
    const { log, omitted } = toSarif(sampleReview);
    expect(omitted).toBe(0);
    const imported = fromSarif(JSON.stringify(log));
    expect(imported.title).toBe(sampleReview.title);
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
      sampleReview.findings.map(({ fingerprint, id, file, line, endLine, state, replies }) => ({
        fingerprint,
        id,
        file,
        line,
        endLine,
        state,
        replies,
      })),
    );
  });

  it('writes markdown in which the renderer finds each finding at its line, with its severity', async () => {
    const imported = fromSarif(JSON.stringify(toSarif(sampleReview).log));
    const { findings } = await renderReview(imported.markdown, workspace);
    expect(
      findings.map(({ severity, file, line, endLine, reviewLine }) => ({ severity, file, line, endLine, reviewLine })),
    ).toEqual(
      sampleReview.findings.map((finding, i) => ({
        severity: finding.severity,
        file: `/w/${finding.file}`,
        line: finding.line,
        endLine: finding.endLine,
        reviewLine: imported.findings[i].markdownLine,
      })),
    );
    expect(findings.map((finding) => finding.suggestions)).toEqual(
      sampleReview.findings.map((finding) => finding.suggestions),
    );
    // The window makes a finding's fingerprint of its file and title: the same of the imported finding
    // as of the original, unless the title is cut (at 120 characters) where the original's was not:
    // the reference in front of it, which a path with spaces writes as a link, takes part of the room.
    const uncut = findings
      .map((finding, i) => ({ finding, original: sampleReview.findings[i] }))
      .filter(({ finding }) => !finding.title.endsWith('…'));
    expect(uncut.length).toBe(sampleReview.findings.length - 1);
    expect(uncut.map(({ finding }) => findingFingerprint(finding.file.slice('/w/'.length), finding.title))).toEqual(
      uncut.map(({ original }) => findingFingerprint(original.file, labelOf(original.markdown).title)),
    );
  });
});

describe('Redline → SARIF → Redline, the first line of a finding', () => {
  it('loses its label only when it has one: an unlabelled finding that starts with a severity word keeps it', () => {
    const unlabelled = {
      ...sampleReview.findings[7],
      severity: null,
      markdown: '- Bugs hide in the retry `src/log.ts:8`',
      title: 'Bugs hide in the retry',
    };
    const labelled = { ...sampleReview.findings[1], markdown: '1. _bug:_ Risky cast `src/backoff.ts:12`' };
    const imported = fromSarif(JSON.stringify(toSarif({ ...sampleReview, findings: [unlabelled, labelled] }).log));
    const lines = imported.markdown.split('\n');
    expect(imported.findings.map((finding) => lines[finding.markdownLine - 1])).toEqual([
      '- `src/log.ts:8` Bugs hide in the retry `src/log.ts:8`',
      '- **bug**: `src/backoff.ts:12` Risky cast `src/backoff.ts:12`',
    ]);
  });
});
