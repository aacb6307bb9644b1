// The MCP Apps extension (SEP-1865) as Redline speaks it: its name, the view's resource, and whether
// a client declared it. No imports: the entry's opening (opening/openingMessages.ts) decides with
// the same check as the full server, before the SDK has loaded.

/** The extension's identifier, under `capabilities.extensions`. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The one content type of an MCP App's view. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The review's view, which present-review and get-review link to. */
export const REVIEW_VIEW_URI = 'ui://redline/review';
/** The key of a 2026-07-28 request's envelope that carries the client's capabilities. */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/**
 * Whether `capabilities` (a client's, from its initialize or a request's envelope) declare the
 * extension with the view's content type, as the specification requires of a host that renders it.
 */
export function declaresUi(capabilities: unknown): boolean {
  const extensions = field(capabilities, 'extensions');
  const mimeTypes = field(field(extensions, UI_EXTENSION), 'mimeTypes');
  return Array.isArray(mimeTypes) && mimeTypes.includes(VIEW_MIME_TYPE);
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
