// Findings and reviews for the publishing tests: plain data, as the window exports it.

import { findingFingerprint, type ExportedFinding, type ExportedReview } from '../../../shared/exchange/exportedReview';

export function finding(
  file: string,
  line: number,
  title: string,
  extra: Partial<ExportedFinding> = {},
): ExportedFinding {
  const endLine = extra.endLine ?? line;
  return {
    id: `${file}:${line}:${title}`,
    fingerprint: findingFingerprint(file, title),
    severity: 'bug',
    title,
    markdown: `**bug**: ${title}`,
    file,
    line,
    endLine,
    state: 'open',
    stale: false,
    replies: [],
    suggestions: [],
    ...extra,
  };
}

export function reviewOf(findings: readonly ExportedFinding[], extra: Partial<ExportedReview> = {}): ExportedReview {
  return {
    revision: 1,
    markdown: '# Review',
    repositoryRoot: '/repo',
    findings,
    toolVersion: '0.1.0',
    assistant: 'claude',
    ...extra,
  };
}
