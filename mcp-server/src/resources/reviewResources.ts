// Redline's MCP resources: the calling assistant's current review, its earlier reviews (a
// template, listed and completed), and the user's selection. Each read asks the window, so a
// resource is never staler than the window itself; resourceSubscriptions.ts says when one changed.

import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, type EarlierReviewEntry } from '../../../shared/protocol';
import { stderrLog } from '../log';
import { assistantOf, bridgeFor, type ToolContext } from '../tools/toolContext';
import { CURRENT_REVIEW_URI, EARLIER_REVIEW_TEMPLATE, SELECTION_URI, earlierReviewRevision, earlierReviewUri } from './resourceUris';

/** MCP's code for a resource that does not exist (the specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;

export function registerReviewResources(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(server, context);
  const history = async (): Promise<EarlierReviewEntry[]> =>
    (await bridge.request('list-review-history', { assistant: assistantOf(server) })).entries;
  const earlierReviews = listWithoutWaiting(server, context, () => orNone(history, 'list-earlier-reviews'));

  server.registerResource(
    'current-review',
    CURRENT_REVIEW_URI,
    {
      title: 'Current review',
      description:
        'The review you presented last in VS Code, as markdown, with the edits of later appends and section updates. ' +
        'Empty until you present one. Subscribe to hear when it changes, or when the user answers it.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      const review = await bridge.request('get-review', { assistant: assistantOf(server) });
      return markdown(uri.href, review.markdown);
    },
  );

  server.registerResource(
    'earlier-review',
    new ResourceTemplate(EARLIER_REVIEW_TEMPLATE, {
      // A client lists resources to show them: with no window yet, the others are still listed.
      list: async () => ({ resources: (await earlierReviews()).map(describeEntry) }),
      complete: {
        index: async (typed) =>
          (await orNone(history, 'complete-earlier-review')).map((entry) => String(entry.revision)).filter((index) => index.startsWith(typed)),
      },
    }),
    {
      title: 'Earlier review',
      description:
        'A review you presented before the current one, by the revision it had (see resources/list). ' +
        'The window keeps the last few (the redline.historySize setting); older ones are gone.',
      mimeType: 'text/markdown',
    },
    async (uri) => {
      const revision = earlierReviewRevision(uri.href);
      if (revision === undefined) {
        throw new McpError(RESOURCE_NOT_FOUND, `${uri.href} names no earlier review: the index is a revision number such as ${earlierReviewUri(3)}.`);
      }
      try {
        const earlier = await bridge.request('get-earlier-review', { revision, assistant: assistantOf(server) });
        return markdown(uri.href, earlier.markdown);
      } catch (error) {
        if ((error as { code?: unknown }).code === ErrorCode.NotFound) throw new McpError(RESOURCE_NOT_FOUND, (error as Error).message);
        throw error;
      }
    },
  );

  server.registerResource(
    'selection',
    SELECTION_URI,
    {
      title: 'Selection in VS Code',
      description:
        'The file in the user\'s active editor and what they selected, as JSON (the get-selection tool\'s result). ' +
        'Subscribe to hear when the selection moves.',
      mimeType: 'application/json',
    },
    async (uri) => {
      const selection = await bridge.request('get-selection', {});
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(selection, null, 2) }] };
    },
  );
}

function markdown(uri: string, text: string): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}

function describeEntry(entry: EarlierReviewEntry) {
  return {
    uri: earlierReviewUri(entry.revision),
    name: `review-${entry.revision}`,
    title: entry.title ? `${entry.title} (revision ${entry.revision})` : `Review revision ${entry.revision}`,
    description: `Presented ${entry.updatedAt}; replaced since.`,
    mimeType: 'text/markdown',
    size: entry.bytes,
  };
}

/**
 * The earlier reviews for resources/list, never waiting for a window: a client lists resources
 * while it starts (Gemini CLI before its first model turn), and finding no window took 3.4 s of
 * retries. Connected, the window is asked; not yet, the list is empty at once, the window is
 * sought meanwhile, and list_changed tells the client when there is something to list.
 */
function listWithoutWaiting(server: McpServer, context: ToolContext, read: () => Promise<EarlierReviewEntry[]>): () => Promise<EarlierReviewEntry[]> {
  let connected = false;
  let seeking: Promise<void> | undefined;
  context.bridge.onConnectionChange((now) => (connected = now));
  return async () => {
    if (connected) return read();
    seeking ??= read().then((entries) => {
      seeking = undefined;
      if (entries.length > 0 && server.isConnected()) server.sendResourceListChanged();
    });
    return [];
  };
}

/** What a listing or a completion shows when the window cannot say: nothing, and a line on stderr. */
async function orNone<T>(read: () => Promise<T[]>, what: string): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    stderrLog(`${what}-failed`, { error: String((error as Error)?.message ?? error).slice(0, 300) });
    return [];
  }
}
