// A review as reviewdog's rdjsonl: one Diagnostic per line, for `reviewdog -f=rdjsonl` to post to a
// pull request. Ranges are whole lines without columns, which reviewdog's schema says cover the end
// line; an end of `{line: E + 1, column: 1}` would make its GitHub reporter comment on one line more.

import type { ExportedFinding, ExportedReview } from './exportedReview';
import { findingMessage } from './findingMessage';
import { REVIEWDOG_SEVERITY, kindOf, type ReviewdogSeverity } from './findingKinds';
import { REDLINE_INFORMATION_URI } from './sarifExport';

/** reviewdog's Diagnostic, as much of it as Redline writes. */
export interface ReviewdogDiagnostic {
  readonly message: string;
  readonly location: { readonly path: string; readonly range: ReviewdogRange };
  readonly severity: ReviewdogSeverity;
  readonly source: { readonly name: string; readonly url: string };
  readonly code: { readonly value: string };
  readonly suggestions?: ReadonlyArray<{ readonly range: ReviewdogRange; readonly text: string }>;
}

interface ReviewdogRange {
  readonly start: { readonly line: number };
  readonly end: { readonly line: number };
}

/** One JSON line per finding, each ended by a newline (an empty review gives an empty string). */
export function toRdjsonl(review: ExportedReview): string {
  return review.findings.map((finding) => `${JSON.stringify(diagnosticOf(finding))}\n`).join('');
}

export function diagnosticOf(finding: ExportedFinding): ReviewdogDiagnostic {
  const kind = kindOf(finding.severity);
  const line = Math.max(1, finding.line);
  const range: ReviewdogRange = { start: { line }, end: { line: Math.max(line, finding.endLine) } };
  const diagnostic: ReviewdogDiagnostic = {
    message: findingMessage(finding.markdown),
    location: { path: finding.file, range },
    severity: REVIEWDOG_SEVERITY[kind],
    source: { name: 'redline', url: REDLINE_INFORMATION_URI },
    code: { value: kind },
  };
  // A suggestion replaces the finding's lines: reviewdog writes its text into a ```suggestion block.
  return finding.suggestions.length === 0
    ? diagnostic
    : { ...diagnostic, suggestions: finding.suggestions.map((text) => ({ range, text })) };
}
