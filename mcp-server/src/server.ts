// Builds the Redline MCP server with its tools, resources and prompts; transport and process
// lifetime live in index.ts.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { REDLINE_VERSION } from '../../shared/version';
import { limitToolCalls } from './callLimit';
import { registerReviewPrompts } from './prompts/reviewPrompts';
import { ResourceSubscriptions } from './resources/resourceSubscriptions';
import { registerReviewResources } from './resources/reviewResources';
import { registerEditorContextTools } from './tools/editorContext';
import { registerGetReviewTool } from './tools/getReview';
import { registerGetSelectionTool } from './tools/getSelection';
import { registerOpenLocationTool } from './tools/openLocation';
import { registerPresentReviewTool } from './tools/presentReview';
import { registerReviewFeedbackTools } from './tools/reviewFeedback';
import { stderrLog } from './log';
import type { ToolContext } from './tools/toolContext';

export function createServer(context: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'redline', version: REDLINE_VERSION },
    {
      // logging/setLevel and notifications/message: protocolLog.ts.
      capabilities: { logging: {} },
      instructions:
        'Redline shows your reviews in the user\'s VS Code, with every file:line reference a clickable link. ' +
        'Present reviews with present-review rather than long chat messages; read what the user selected with get-selection, ' +
        'and what VS Code reports wrong with get-diagnostics. ' +
        'The user answers findings in the editor: read their replies and decisions with get-review-feedback, or wait for them with await-review-feedback. ' +
        'The current review is also the resource redline://review/current, and the selection redline://selection.',
    },
  );
  limitToolCalls(server);
  registerPresentReviewTool(server, context);
  registerGetSelectionTool(server, context);
  registerOpenLocationTool(server, context);
  registerGetReviewTool(server, context);
  registerReviewFeedbackTools(server, context);
  registerEditorContextTools(server, context);
  registerReviewResources(server, context);
  registerReviewPrompts(server, context);
  const subscriptions = new ResourceSubscriptions(server, context.bridge, stderrLog);
  subscriptions.register();
  const closed = server.server.onclose;
  server.server.onclose = () => {
    subscriptions.dispose();
    closed?.();
  };
  return server;
}
