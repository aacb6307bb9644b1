// Builds the Redline MCP server with its tools, resources and prompts, for one connection and the
// protocol era it opened with (serveStdio in fullServer.ts decides the era and calls this once for
// it). The same tools serve both eras; only MCP logging, which the 2026-07-28 revision dropped,
// exists only for the older ones. A client that renders MCP Apps also gets the review's view and
// the tools it calls (appView/uiNegotiation.ts).

import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ProtocolEra,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { REDLINE_VERSION } from '../../shared/version';
import { reviewViewContents } from './appView/reviewViewResource';
import { offerUiExtension } from './appView/uiNegotiation';
import { CallsInFlight, limitToolCalls } from './callLimit';
import { registerReviewPrompts } from './prompts/reviewPrompts';
import { ResourceSubscriptions } from './resources/resourceSubscriptions';
import { registerReviewResources } from './resources/reviewResources';
import { registerEditorContextTools } from './tools/editorContextTools';
import { registerGetReviewTool } from './tools/getReviewTool';
import { registerGetSelectionTool } from './tools/getSelectionTool';
import { registerOpenLocationTool } from './tools/openLocationTool';
import { registerPresentReviewTool } from './tools/presentReviewTool';
import { addWindowHint } from './tools/resultHints';
import { registerReviewFeedbackTools } from './tools/reviewFeedbackTools';
import { REVIEW_VIEW_TOOLS, registerReviewViewTools } from './tools/reviewViewTools';
import { assistantOf, type ToolContext } from './tools/toolContext';

const INSTRUCTIONS =
  "Redline shows your reviews in the user's VS Code, with every file:line reference a clickable link. " +
  'Present reviews with present-review rather than long chat messages; read what the user selected with get-selection, ' +
  'and what VS Code reports wrong with get-diagnostics. ' +
  'The user answers findings in the editor: read their replies and decisions with get-review-feedback, or wait for them with await-review-feedback. ' +
  'The current review is also the resource redline://review/current, and the selection redline://selection.';

/**
 * How long a 2026-07-28 client may reuse a list. Tools, prompts and templates are fixed for the
 * server's life, and one server serves one client, so an hour is safe. The resource list holds the
 * history, which changes with every present: never cached (list_changed says when to list again).
 */
const HOUR_MS = 60 * 60 * 1000;
const CACHE_HINTS: ServerOptions['cacheHints'] = {
  'tools/list': { ttlMs: HOUR_MS, cacheScope: 'private' },
  'prompts/list': { ttlMs: HOUR_MS, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: HOUR_MS, cacheScope: 'private' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
};

export function createServer(context: ToolContext, era: ProtocolEra = 'legacy'): McpServer {
  const server = new McpServer(
    { name: 'redline', version: REDLINE_VERSION },
    {
      // logging/setLevel and notifications/message (protocolLog.ts) exist only before 2026-07-28.
      capabilities: era === 'legacy' ? { logging: {} } : {},
      instructions: INSTRUCTIONS,
      cacheHints: CACHE_HINTS,
    },
  );
  offerUiExtension(server, {
    linkedTools: ['present-review', 'get-review'],
    appTools: REVIEW_VIEW_TOOLS,
    readView: () => {
      if (!context.viewHtml)
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'This build of Redline has no view.');
      return reviewViewContents(context.viewHtml());
    },
  });
  limitToolCalls(server, new CallsInFlight(context.log.for('call-limit')));
  addWindowHint(server, () => context.bridge.reachedWindow);
  registerPresentReviewTool(server, context);
  registerGetSelectionTool(server, context);
  registerOpenLocationTool(server, context);
  registerGetReviewTool(server, context);
  registerReviewFeedbackTools(server, context);
  registerEditorContextTools(server, context);
  registerReviewViewTools(server, context);
  registerReviewResources(server, context);
  registerReviewPrompts(server, context);
  const log = context.log.for('subscriptions');
  const subscriptions = new ResourceSubscriptions(server, {
    bridge: context.bridge,
    log,
    era,
    assistant: () => assistantOf(context),
  });
  subscriptions.install();
  const closed = server.server.onclose;
  server.server.onclose = () => {
    // The SDK's close callback cannot wait: a failure to release is logged, not lost.
    subscriptions.dispose().catch((error: unknown) => log.warn('release-failed', { error }));
    closed?.();
  };
  return server;
}
