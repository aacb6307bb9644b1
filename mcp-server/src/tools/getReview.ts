// get-review: reads back the review currently shown, e.g. before revising one section of it.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GetReviewResult } from '../../../shared/protocol';
import type { ToolContext } from './toolContext';
import { describeFindings } from './presentReview';
import { toolResult } from './toolResult';

export function registerGetReviewTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'get-review',
    {
      title: 'Get the review shown in VS Code',
      description:
        'Read back the markdown of the review currently shown in the Redline panel, with its revision and section headings. ' +
        'Use it before "update-section" or "append" when you are not sure what the panel holds (the user may have cleared it, ' +
        'or another assistant may have written to it). Its findings say where their code is now (after the user\'s edits), ' +
        'their state (open, resolved, accepted, wont-fix), and whether the code they pointed at has changed ("stale").',
      inputSchema: {},
      outputSchema: GetReviewResult,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args, extra) =>
      toolResult(
        () => context.bridge.request('get-review', {}, extra.signal),
        (review) =>
          review.revision === 0 || review.markdown === ''
            ? 'No review is shown in VS Code right now.'
            : [`Revision ${review.revision}${review.title ? ` "${review.title}"` : ''}:\n\n${review.markdown}`, describeFindings(review.findings).join('\n')]
                .filter(Boolean)
                .join('\n\n'),
      ),
  );
}
