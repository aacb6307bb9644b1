// get-review: reads back the review currently shown, e.g. before revising one section of it, and,
// when asked, how its findings stand against the review it replaced.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { GetReviewResult, MAX_CURSOR_CHARS, type ReviewComparison, type ReviewPage } from '../../../shared/protocol';
import { assistantOf, bridgeFor, type ToolContext } from './toolContext';
import { describeFindings } from './presentReviewTool';
import { NEXT_STEPS, toolResult } from './toolResult';

export function registerGetReviewTool(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'get-review',
    {
      title: 'Get the review shown in VS Code',
      description:
        'Read back the code review you presented in the Redline panel (each assistant has its own): its markdown, revision and section headings. ' +
        'Use it before "update-section" or "append" when you are not sure what the panel holds (the user may have cleared it, ' +
        'or another assistant may have written to it). A long review comes in pages: when the result has a "nextCursor", call ' +
        'get-review again with it as "cursor" for the next page, until there is none. Its findings say where their code is now (after the user\'s edits), ' +
        'their state (open, resolved, accepted, wont-fix), and whether the code they pointed at has changed ("stale"). ' +
        'With compareWithPrevious, it also lists which findings are new since the review this one replaced, which were fixed ' +
        '(gone from this review, or resolved by the user), which are still open, and which the user declined: use it after ' +
        'presenting a follow-up review, to tell the user what changed.',
      inputSchema: z.object({
        compareWithPrevious: z
          .boolean()
          .optional()
          .describe('Also compare the findings with those of the previous review in this window (on the first page).'),
        cursor: z
          .string()
          .max(MAX_CURSOR_CHARS)
          .optional()
          .describe(
            'The "nextCursor" of your last get-review result, to read the next page. Leave it out for the first page.',
          ),
      }),
      outputSchema: GetReviewResult.extend(NEXT_STEPS),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ compareWithPrevious, cursor }, ctx) =>
      toolResult(
        () =>
          bridge.request(
            'get-review',
            { compareWithPrevious, cursor, assistant: assistantOf(context) },
            { signal: ctx.mcpReq.signal },
          ),
        describeReview,
        (review) => (review.nextCursor === undefined ? [] : [nextPageStep(review.nextCursor, review.page)]),
      ),
  );
}

/** The page as the text gives it: where it sits in the review, its markdown, its findings. */
function describeReview(review: GetReviewResult): string {
  return [
    describeMarkdown(review),
    describeFindings(review.findings).join('\n'),
    review.comparison === undefined ? '' : describeComparison(review.comparison).join('\n'),
    review.nextCursor === undefined ? '' : nextPageStep(review.nextCursor, review.page),
  ]
    .filter(Boolean)
    .join('\n\n');
}

function describeMarkdown({ revision, title, markdown, page, nextCursor }: GetReviewResult): string {
  if (revision === 0 || page === undefined || (markdown === '' && page.firstFinding === 0 && nextCursor === undefined))
    return 'No review is shown in VS Code right now.';
  const heading = `Revision ${revision}${title ? ` "${title}"` : ''}`;
  if (page.fromLine === undefined) return `${heading}, more of its findings:`;
  const whole = page.fromLine === 1 && nextCursor === undefined;
  return `${heading}${whole ? '' : `, ${describeLines(page)}`}:\n\n${markdown}`;
}

function describeLines(page: ReviewPage): string {
  return page.fromLine === page.toLine
    ? `line ${page.fromLine} of ${page.totalLines}`
    : `lines ${page.fromLine}-${page.toLine} of ${page.totalLines}`;
}

/** What to call next, in the text and in nextSteps alike. */
function nextPageStep(cursor: string, page: ReviewPage | undefined): string {
  const next =
    page?.toLine === undefined ? 'the rest of its findings' : `the next page (the review has ${page.totalLines} lines)`;
  return `This is part of the review. Call get-review with cursor "${cursor}" for ${next}; go on until a result has no nextCursor.`;
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
  if (comparison.omitted)
    lines.push(
      `${comparison.omitted} more entries were left out to keep this reply small; the lists above are their first entries.`,
    );
  return lines;
}
