// get-review: reads back the review currently shown, e.g. before revising one section of it.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GetReviewResult } from '../../../shared/protocol';
import type { ToolContext } from './toolContext';
import { toolResult } from './toolResult';

export function registerGetReviewTool(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'get-review',
    {
      title: 'Get the review shown in VS Code',
      description:
        'Read back the markdown of the review currently shown in the Redline panel, with its revision and section headings. ' +
        'Use it before "update-section" or "append" when you are not sure what the panel holds (the user may have cleared it, ' +
        'or another assistant may have written to it).',
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
            : `Revision ${review.revision}${review.title ? ` "${review.title}"` : ''}:\n\n${review.markdown}`,
      ),
  );
}
