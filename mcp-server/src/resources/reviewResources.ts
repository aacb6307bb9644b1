// Redline's MCP resources: the calling assistant's current review, its earlier reviews (a
// template, listed and completed), and the user's selection. Each read asks the window, so a
// resource is never staler than the window itself; resourceSubscriptions.ts says when one changed.
// resources/list is paged (the SDK's list is one page): the current review and the selection
// first, then the earlier reviews newest first, RESOURCES_PER_PAGE to a page.

import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type ListResourcesResult,
  type McpServer,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import { ErrorCode, type EarlierReviewEntry } from '../../../shared/protocol';
import type { Logger } from '../../../shared/logger';
import { readWholeExport, readWholeReview } from '../wholeReview';
import { assistantOf, bridgeFor, type ToolContext } from '../tools/toolContext';
import {
  CURRENT_REVIEW_SARIF_URI,
  CURRENT_REVIEW_URI,
  EARLIER_REVIEW_TEMPLATE,
  SELECTION_URI,
  earlierReviewRevision,
  earlierReviewUri,
} from './resourceUris';

/** MCP's code for a resource that does not exist (the specification's "Resource not found"). */
const RESOURCE_NOT_FOUND = -32002;
/** A day of reviews is a few hundred: a client that shows the list gets it in pages. */
export const RESOURCES_PER_PAGE = 50;

const CURRENT_REVIEW = {
  title: 'Current review',
  description:
    'The review you presented last in VS Code, as markdown, with the edits of later appends and section updates. ' +
    'Empty until you present one. Subscribe to hear when it changes, or when the user answers it.',
  mimeType: 'text/markdown',
};
const CURRENT_REVIEW_SARIF = {
  title: 'Current review as SARIF',
  description:
    "The same review as a SARIF 2.1.0 log: each finding a result, at the lines where its code is now, with the user's state and replies. " +
    'A log with no results until you present a review.',
  mimeType: 'application/sarif+json',
};
const SELECTION = {
  title: 'Selection in VS Code',
  description:
    "The file in the user's active editor and what they selected, as JSON (the get-selection tool's result). " +
    'Subscribe to hear when the selection moves.',
  mimeType: 'application/json',
};

export function registerReviewResources(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  const history = async (): Promise<EarlierReviewEntry[]> =>
    (await bridge.request('list-review-history', { assistant: assistantOf(context) })).entries;
  const log = context.log.for('resources');
  const earlierReviews = listWithoutWaiting(server, context, () => orNone(history, 'list-earlier-reviews', log));

  server.registerResource('current-review', CURRENT_REVIEW_URI, CURRENT_REVIEW, async (uri) => {
    const review = await readWholeReview((params) =>
      bridge.request('get-review', { ...params, assistant: assistantOf(context) }),
    );
    return markdown(uri.href, review.markdown);
  });

  server.registerResource('current-review-sarif', CURRENT_REVIEW_SARIF_URI, CURRENT_REVIEW_SARIF, async (uri) => {
    const exported = await readWholeExport((cursor) =>
      bridge.request('export-review', {
        format: 'sarif',
        assistant: assistantOf(context),
        ...(cursor !== undefined ? { cursor } : {}),
      }),
    );
    return oneRead({ uri: uri.href, mimeType: CURRENT_REVIEW_SARIF.mimeType, text: exported.text }, PAGED_SARIF);
  });

  server.registerResource(
    'earlier-review',
    new ResourceTemplate(EARLIER_REVIEW_TEMPLATE, {
      // Listed by the paged resources/list below.
      list: undefined,
      complete: {
        index: async (typed) =>
          (await orNone(history, 'complete-earlier-review', log))
            .map((entry) => String(entry.revision))
            .filter((index) => index.startsWith(typed)),
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
        throw new ProtocolError(
          RESOURCE_NOT_FOUND,
          `${uri.href} names no earlier review: the index is a revision number such as ${earlierReviewUri(3)}.`,
        );
      }
      try {
        const earlier = await bridge.request('get-earlier-review', { revision, assistant: assistantOf(context) });
        return markdown(uri.href, earlier.markdown);
      } catch (error) {
        if ((error as { code?: unknown }).code === ErrorCode.NotFound)
          throw new ProtocolError(RESOURCE_NOT_FOUND, (error as Error).message);
        throw error;
      }
    },
  );

  server.registerResource('selection', SELECTION_URI, SELECTION, async (uri) => {
    const selection = await bridge.request('get-selection', {});
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(selection, null, 2) }] };
  });

  // Replaces the SDK's one-page list, which registerResource installed.
  server.server.setRequestHandler('resources/list', async (request) =>
    listPage(await earlierReviews(), request.params?.cursor),
  );
}

/** One page: the fixed resources head the first; a cursor names the last earlier review listed. */
export function listPage(earlier: readonly EarlierReviewEntry[], cursor: string | undefined): ListResourcesResult {
  const before = cursor === undefined ? undefined : revisionInCursor(cursor);
  const fixed: Resource[] =
    before === undefined
      ? [
          { uri: CURRENT_REVIEW_URI, name: 'current-review', ...CURRENT_REVIEW },
          { uri: CURRENT_REVIEW_SARIF_URI, name: 'current-review-sarif', ...CURRENT_REVIEW_SARIF },
          { uri: SELECTION_URI, name: 'selection', ...SELECTION },
        ]
      : [];
  // Newest first, as the window gives them; by revision, so that a review presented meanwhile
  // neither repeats an entry nor skips one.
  const rest = before === undefined ? earlier : earlier.filter((entry) => entry.revision < before);
  const page = rest.slice(0, RESOURCES_PER_PAGE - fixed.length);
  const last = page.at(-1);
  return {
    resources: [...fixed, ...page.map(describeEntry)],
    ...(last && rest.length > page.length ? { nextCursor: `before-${last.revision}` } : {}),
  };
}

function revisionInCursor(cursor: string): number {
  const match = /^before-([1-9][0-9]{0,15})$/.exec(cursor);
  if (!match) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `"${cursor.slice(0, 100)}" is not a cursor Redline gave; list resources again without one.`,
    );
  }
  return Number(match[1]);
}

/**
 * A resource is read in one reply, which cannot be paged: past this much JSON, a client with a
 * line limit (Codex CLI's 8 MiB is the smallest) would drop the connection, so the read is
 * refused instead, pointing at what reads it in pages.
 */
export const MAX_RESOURCE_JSON_BYTES = 6 * 1024 * 1024;

const PAGED_MARKDOWN = 'The get-review tool reads the current review in pages.';
const PAGED_SARIF =
  'The command line writes it to a file whole: node mcp-server.js export --format sarif --output FILE.';

function markdown(uri: string, text: string): ReadResourceResult {
  return oneRead({ uri, mimeType: 'text/markdown', text }, PAGED_MARKDOWN);
}

/** `contents` as the one content of a read; `instead` says what reads it when it is too large. */
function oneRead(contents: { uri: string; mimeType: string; text: string }, instead: string): ReadResourceResult {
  const { uri, text } = contents;
  const bytes = Buffer.byteLength(JSON.stringify(text), 'utf8');
  if (bytes > MAX_RESOURCE_JSON_BYTES) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `${uri} is too large to read in one piece (${bytes} bytes as JSON, more than ${MAX_RESOURCE_JSON_BYTES}). ${instead}`,
    );
  }
  return { contents: [contents] };
}

function describeEntry(entry: EarlierReviewEntry): Resource {
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
 * while it starts (Gemini CLI before its first model turn), and finding no window takes seconds of
 * retries. Connected, the window is asked; not yet, the list is empty at once, the window is
 * sought meanwhile, and list_changed tells the client when there is something to list.
 */
function listWithoutWaiting(
  server: McpServer,
  context: ToolContext,
  read: () => Promise<EarlierReviewEntry[]>,
): () => Promise<EarlierReviewEntry[]> {
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

/** What a listing or a completion shows when the window cannot say: nothing, and a warning. */
async function orNone<T>(read: () => Promise<T[]>, what: string, log: Logger): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    log.warn(`${what}-failed`, { error: String((error as Error)?.message ?? error).slice(0, 300) });
    return [];
  }
}
