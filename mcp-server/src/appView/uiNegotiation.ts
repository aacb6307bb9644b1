// Offers the MCP Apps extension only to a client that declares it (uiExtension.ts): in the 2025 era
// by its initialize, in the 2026-07-28 era by each request's envelope, server/discover's included.
// A client that declares it is told the extension in return, finds present-review and get-review
// linked to the review's view, sees the tools only the view calls, and may read the view. Every
// other client gets exactly the answers it would get without this module.

import {
  ProtocolError,
  ProtocolErrorCode,
  type ListToolsResult,
  type McpServer,
  type ReadResourceResult,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META, declaresUi, REVIEW_VIEW_URI, UI_EXTENSION } from './uiExtension';

export interface UiOffer {
  /** The tools whose results the view shows. */
  readonly linkedTools: readonly string[];
  /** The tools only the view calls: a client that does not render views never sees them. */
  readonly appTools: readonly string[];
  /** The view's resource, as resources/read answers it. */
  readonly readView: () => ReadResourceResult;
}

/** What a handler is given, as far as this module reads it. */
interface HandlerContext {
  readonly mcpReq?: { readonly envelope?: object };
}
type Handler = (request: { params?: Record<string, unknown> }, ctx: HandlerContext) => unknown;
type Wrapper = (next: Handler) => Handler;

/** `_meta` of a tool whose results the view shows; the flat key is what hosts before 2026-01-26 read. */
export const VIEW_LINK = { ui: { resourceUri: REVIEW_VIEW_URI }, 'ui/resourceUri': REVIEW_VIEW_URI };
/** `_meta` of a tool only the view calls: hosts keep it from the model. */
export const APP_ONLY = { ui: { visibility: ['app'] } };

/**
 * Called where the server is made, before its tools and resources: the handlers they install are
 * wrapped as they are set (the SDK sets tools/list and resources/read on the first registration,
 * and serveStdio sets server/discover once the server is made).
 */
export function offerUiExtension(server: McpServer, offer: UiOffer): void {
  const inner = server.server;
  const linked = new Set(offer.linkedTools);
  const appOnly = new Set(offer.appTools);
  // 2026-07-28: the request's own envelope; before it, what the client declared in its initialize.
  const declared = (ctx: HandlerContext) => {
    const envelope = ctx.mcpReq?.envelope as Record<string, unknown> | undefined;
    return declaresUi(
      envelope && CLIENT_CAPABILITIES_META in envelope
        ? envelope[CLIENT_CAPABILITIES_META]
        : inner.getClientCapabilities(),
    );
  };

  const wrappers: Record<string, Wrapper> = {
    'tools/list': (next) => async (request, ctx) => {
      const result = (await next(request, ctx)) as ListToolsResult;
      return declared(ctx)
        ? { ...result, tools: result.tools.map((tool) => (linked.has(tool.name) ? withViewLink(tool) : tool)) }
        : { ...result, tools: result.tools.filter((tool) => !appOnly.has(tool.name)) };
    },
    'tools/call': (next) => (request, ctx) => {
      const name = request.params?.name;
      // The SDK's own answer for a tool it does not have.
      if (typeof name === 'string' && appOnly.has(name) && !declared(ctx))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      return next(request, ctx);
    },
    'resources/read': (next) => (request, ctx) =>
      request.params?.uri === REVIEW_VIEW_URI && declared(ctx) ? offer.readView() : next(request, ctx),
    'server/discover': (next) => async (request, ctx) => {
      const result = (await next(request, ctx)) as { capabilities: ServerCapabilities };
      return declared(ctx) ? { ...result, capabilities: withExtension(result.capabilities) } : result;
    },
  };
  const setRequestHandler = inner.setRequestHandler.bind(inner) as (method: string, ...rest: unknown[]) => void;
  inner.setRequestHandler = ((method: string, ...rest: unknown[]) => {
    // Only the spec's methods, set with a handler alone; one set with schemas of its own is left as it is.
    const wrap = rest.length === 1 && typeof rest[0] === 'function' ? wrappers[method] : undefined;
    setRequestHandler(method, ...(wrap ? [wrap(rest[0] as Handler)] : rest));
  }) as typeof inner.setRequestHandler;

  // initialize reads the server's capabilities once the client's are known, and has no context.
  const capabilities = inner.getCapabilities.bind(inner);
  inner.getCapabilities = () =>
    declaresUi(inner.getClientCapabilities()) ? withExtension(capabilities()) : capabilities();
}

function withViewLink(tool: Tool): Tool {
  return { ...tool, _meta: { ...tool._meta, ...VIEW_LINK } };
}

function withExtension(capabilities: ServerCapabilities): ServerCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [UI_EXTENSION]: {} } };
}
