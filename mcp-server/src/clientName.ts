// The calling assistant's name (MCP clientInfo), under which each assistant's review is kept. It is
// read off the wire, from `initialize` or a 2026-07-28 request's envelope, since the SDK gives the
// envelope only to that request's handler and resources, prompts and Activity entries need it too.

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
