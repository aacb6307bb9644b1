// A review as it leaves the window, with every kind of finding, every state, replies, a suggestion
// and a stale finding: what the export and import tests are written from.

import { findingFingerprint, type ExportedFinding, type ExportedReview } from '../../../shared/exchange/exportedReview';
import type { FindingSeverity, FindingState } from '../../../shared/findingTerms';

export function finding(options: {
  severity: FindingSeverity | null;
  title: string;
  file: string;
  line: number;
  endLine?: number;
  state?: FindingState;
  replies?: ExportedFinding['replies'];
  suggestions?: string[];
  stale?: boolean;
  body?: string;
}): ExportedFinding {
  const label = options.severity === null ? '' : `**${options.severity}**: `;
  const markdown = `- ${label}${options.title} \`${options.file}:${options.line}\`${options.body === undefined ? '' : `\n  ${options.body.split('\n').join('\n  ')}`}`;
  return {
    id: `f-${Buffer.from(markdown).toString('base64url').slice(-12)}`,
    fingerprint: findingFingerprint(options.file, options.title),
    severity: options.severity,
    title: options.title,
    markdown,
    file: options.file,
    line: options.line,
    endLine: options.endLine ?? options.line,
    state: options.state ?? 'open',
    stale: options.stale ?? false,
    replies: options.replies ?? [],
    suggestions: options.suggestions ?? [],
  };
}

export const sampleReview: ExportedReview = {
  assistant: 'Claude Code',
  title: 'Review of the retry loop',
  revision: 3,
  repositoryRoot: '/home/dev/project',
  toolVersion: '0.1.0',
  markdown: [
    '# Review of the retry loop',
    '',
    'The loop is mostly sound; a few things to fix.',
    '',
    '- **blocking**: the retry never stops `src/retry.ts:40`',
    '- **bug**: off by one in the backoff `src/backoff.ts:12`',
  ].join('\n'),
  findings: [
    finding({
      severity: 'blocking',
      title: 'the retry never stops',
      file: 'src/retry.ts',
      line: 42,
      endLine: 47,
      replies: [{ text: 'Good catch.\nFixing it now.', at: '2026-11-27T07:00:00.000Z' }],
    }),
    finding({
      severity: 'bug',
      title: 'off by one in the backoff',
      file: 'src/backoff.ts',
      line: 12,
      state: 'resolved',
      replies: [{ text: 'Fixed in the last commit.', at: '2026-11-27T07:05:00.000Z' }],
    }),
    finding({
      severity: 'risk',
      title: 'the cache grows without bound',
      file: 'src/cache.ts',
      line: 3,
      endLine: 9,
      state: 'wont-fix',
    }),
    finding({
      severity: 'suggestion',
      title: 'use a constant for {0} and {{braces}}',
      file: 'src/a b/name with spaces.ts',
      line: 5,
      suggestions: ['const LIMIT = 5;'],
      body: '```suggestion\nconst LIMIT = 5;\n```',
    }),
    finding({ severity: 'nit', title: 'naming', file: 'src/ünïcode.ts', line: 1, state: 'accepted' }),
    finding({ severity: 'question', title: 'why *twice*?', file: 'src/retry.ts', line: 60, stale: true }),
    finding({ severity: 'praise', title: 'clear tests', file: 'test/retry.test.ts', line: 1, endLine: 30 }),
    finding({
      severity: null,
      title: 'the log line leaks the token',
      file: 'src/log.ts',
      line: 8,
      body: 'It prints `token` in full.\n\n    indented code',
    }),
  ],
};
