// A review as reviewdog's rdjsonl: one Diagnostic per line, for `reviewdog -f=rdjsonl` to post to a
// pull request. Ranges are whole lines without columns, which reviewdog's schema says cover the end
// line; an end of `{line: E + 1, column: 1}` would make its GitHub reporter comment on one line more.
// A finding about a whole file has no range. A finding imported from another tool's log keeps that
// tool's name, rule id, help link and level. reviewdog needs a file for each diagnostic: an imported
// log's results without one are left out, which the export says (exportFormats.ts).

import type { ImportedTool } from '../protocol';
import type { ExportedFinding, ExportedReview } from './exportedReview';
import { findingMessage } from './findingMessage';
import { REVIEWDOG_SEVERITY, kindOf, type ReviewdogSeverity } from './findingKinds';
import { REDLINE_INFORMATION_URI } from './sarifExport';

/** reviewdog's Diagnostic, as much of it as Redline writes. */
export interface ReviewdogDiagnostic {
  readonly message: string;
  readonly location: { readonly path: string; readonly range?: ReviewdogRange };
  readonly severity: ReviewdogSeverity;
  readonly source: { readonly name: string; readonly url?: string };
  readonly code: { readonly value: string; readonly url?: string };
  readonly suggestions?: ReadonlyArray<{ readonly range: ReviewdogRange; readonly text: string }>;
}

interface ReviewdogRange {
  readonly start: { readonly line: number };
  readonly end: { readonly line: number };
}

/** One JSON line per finding, each ended by a newline (an empty review gives an empty string). */
export function toRdjsonl(review: ExportedReview): string {
  const tools = review.importedLog?.tools ?? [];
  return review.findings
    .map((finding) => `${JSON.stringify(diagnosticOf(finding, finding.sarif && tools[finding.sarif.tool]))}\n`)
    .join('');
}

const LEVEL_SEVERITY = { error: 'ERROR', warning: 'WARNING', note: 'INFO', none: 'INFO' } as const;

export function diagnosticOf(finding: ExportedFinding, tool?: ImportedTool): ReviewdogDiagnostic {
  const kind = kindOf(finding.severity);
  const line = Math.max(1, finding.line);
  const range: ReviewdogRange = { start: { line }, end: { line: Math.max(line, finding.endLine) } };
  const sarif = tool === undefined ? undefined : finding.sarif;
  const rule = sarif?.rule === undefined ? undefined : tool?.rules[sarif.rule];
  const level = sarif?.level ?? rule?.level;
  const diagnostic: ReviewdogDiagnostic = {
    message: findingMessage(finding.markdown),
    location: { path: finding.file, ...(finding.fileLevel ? {} : { range }) },
    severity: level !== undefined ? LEVEL_SEVERITY[level] : REVIEWDOG_SEVERITY[kind],
    source: tool
      ? { name: tool.name, ...(tool.informationUri !== undefined ? { url: tool.informationUri } : {}) }
      : { name: 'redline', url: REDLINE_INFORMATION_URI },
    code:
      sarif?.ruleId !== undefined
        ? { value: sarif.ruleId, ...(rule?.helpUri !== undefined ? { url: rule.helpUri } : {}) }
        : { value: kind },
  };
  // A suggestion replaces the finding's lines: reviewdog writes its text into a ```suggestion block.
  return finding.suggestions.length === 0 || finding.fileLevel
    ? diagnostic
    : { ...diagnostic, suggestions: finding.suggestions.map((text) => ({ range, text })) };
}
