// The calling assistant's name (MCP clientInfo), which Redline keeps each assistant's review under.
// A client of the older revisions gives it once, in `initialize`; a 2026-07-28 client gives it in
// the envelope of every request, which the SDK hands to that request's handler only. Resources,
// prompts, completions and the bridge's Activity entries need it too, so it is read here, off the
// wire: one stdio connection is one client, and the name it gave last is the caller's.

import { CLIENT_INFO_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/server';

export class ClientName {
  private name: string | undefined;

  get(): string | undefined {
    return this.name;
  }

  /** Every message from the client, before the SDK sees it. */
  observe(message: JSONRPCMessage): void {
    if (!('method' in message) || typeof message.params !== 'object' || message.params === null) return;
    const params = message.params as { clientInfo?: unknown; _meta?: Record<string, unknown> };
    const info = message.method === 'initialize' ? params.clientInfo : params._meta?.[CLIENT_INFO_META_KEY];
    const name = (info as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && name.trim() !== '') this.name = name;
  }
}
