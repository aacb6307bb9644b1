import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
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
    expect(imported.findings.map(({ fingerprint, id, file, line, endLine, state, replies }) => ({ fingerprint, id, file, line, endLine, state, replies }))).toEqual(
      sampleReview.findings.map(({ fingerprint, id, file, line, endLine, state, replies }) => ({ fingerprint, id, file, line, endLine, state, replies })),
    );
  });

  it('writes markdown in which the renderer finds each finding at its line, with its severity', async () => {
    const imported = fromSarif(JSON.stringify(toSarif(sampleReview).log));
    const { findings } = await renderReview(imported.markdown, workspace);
    expect(findings.map(({ severity, file, line, endLine, reviewLine }) => ({ severity, file, line, endLine, reviewLine }))).toEqual(
      sampleReview.findings.map((finding, i) => ({
        severity: finding.severity,
        file: `/w/${finding.file}`,
        line: finding.line,
        endLine: finding.endLine,
        reviewLine: imported.findings[i].markdownLine,
      })),
    );
    expect(findings.map((finding) => finding.suggestions)).toEqual(sampleReview.findings.map((finding) => finding.suggestions));
  });
});
