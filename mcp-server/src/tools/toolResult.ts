// How every tool turns a bridge call into an MCP result: structured content plus readable text
// on success, and on failure `isError` with a message that tells the assistant what to do.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export async function toolResult<T extends object>(call: () => Promise<T>, describe: (result: T) => string): Promise<CallToolResult> {
  try {
    const result = await call();
    return {
      structuredContent: result as Record<string, unknown>,
      content: [{ type: 'text', text: describe(result) }],
    };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: (error as Error)?.message ?? String(error) }] };
  }
}
