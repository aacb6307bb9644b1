// What every tool is given: the bridge to VS Code, and the directory the assistant runs in.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MAX_ASSISTANT_CHARS } from '../../../shared/protocol';
import type { IpcClient } from '../ipcClient';

export interface ToolContext {
  readonly bridge: Pick<IpcClient, 'request' | 'onEvent'>;
  /** Sent along so that relative references resolve where the assistant runs. */
  readonly cwd: string;
}

/**
 * The calling assistant's name (MCP clientInfo), sent with every call about a review: each
 * assistant has its own review in the window. Cut to what the protocol allows.
 */
export function assistantOf(server: McpServer): string | undefined {
  const name = server.server.getClientVersion()?.name?.trim();
  return name ? name.slice(0, MAX_ASSISTANT_CHARS) : undefined;
}
