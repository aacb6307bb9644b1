// get-review: reads back the review currently shown, e.g. before revising one section of it, and,
// when asked, how its findings stand against the review it replaced.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { GetReviewResult, type ReviewComparison } from '../../../shared/protocol';
import { assistantOf, bridgeFor, type ToolContext } from './toolContext';
import { describeFindings } from './presentReview';
import { toolResult } from './toolResult';

export function registerGetReviewTool(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'get-review',
    {
      title: 'Get the review shown in VS Code',
      description:
        'Read back the code review you presented in the Redline panel (each assistant has its own): its markdown, revision and section headings. ' +
        'Use it before "update-section" or "append" when you are not sure what the panel holds (the user may have cleared it, ' +
        'or another assistant may have written to it). Its findings say where their code is now (after the user\'s edits), ' +
        'their state (open, resolved, accepted, wont-fix), and whether the code they pointed at has changed ("stale"). ' +
        'With compareWithPrevious, it also lists which findings are new since the review this one replaced, which were fixed ' +
        '(gone from this review, or resolved by the user), which are still open, and which the user declined: use it after ' +
        'presenting a follow-up review, to tell the user what changed.',
      inputSchema: z.object({
        compareWithPrevious: z
          .boolean()
          .optional()
          .describe('Also compare the findings with those of the previous review in this window.'),
      }),
      outputSchema: GetReviewResult,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ compareWithPrevious }, ctx) =>
      toolResult(
        () => bridge.request('get-review', { compareWithPrevious, assistant: assistantOf(context) }, ctx.mcpReq.signal),
        (review) =>
          [
            review.revision === 0 || review.markdown === ''
              ? 'No review is shown in VS Code right now.'
              : `Revision ${review.revision}${review.title ? ` "${review.title}"` : ''}:\n\n${review.markdown}`,
            describeFindings(review.findings).join('\n'),
            review.comparison === undefined ? '' : describeComparison(review.comparison).join('\n'),
          ]
            .filter(Boolean)
            .join('\n\n'),
      ),
  );
}

/** The comparison as a short list per kind, each finding with its id and title. */
export function describeComparison(comparison: ReviewComparison | null): string[] {
  if (comparison === null) return ['There is no earlier review in this window to compare with.'];
  const { previous } = comparison;
  const lines = [`Compared with revision ${previous.revision}${previous.title ? ` "${previous.title}"` : ''}:`];
  const kinds = [
    ['New', comparison.new],
    ['Fixed', comparison.fixed],
    ['Still open', comparison.stillOpen],
    ["Won't fix", comparison.declined],
  ] as const;
  for (const [label, findings] of kinds) {
    lines.push(`${label} (${findings.length})${findings.length ? ':' : ''}`);
    for (const finding of findings) {
      const how = 'how' in finding ? ` [${finding.how}]` : '';
      lines.push(`- ${finding.id} ${finding.severity ?? 'finding'} ${finding.reference}${how}: ${finding.title}`);
    }
  }
  return lines;
}
