// What every tool result tells the model besides its own data: on success, which window answered;
// on failure, the reason, its code and whether a retry may work, all in the text. A failure has no
// structured content, since SDK 1.x clients check it against the output schema (which describes a
// success) and would show the model a schema complaint instead of the reason.

import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorCode } from '../../../shared/protocol';

export const WINDOW_HINT = {
  window: z.string().optional().describe('The VS Code window that answered, and how it was found.'),
};

/** Failures that may pass when the same call is made again: nothing about the call was wrong. */
const RETRYABLE = new Set<number>([ErrorCode.Busy, ErrorCode.Timeout, ErrorCode.Disconnected]);
const ERROR_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The sentence after a failure's reason: its code, and whether the same call may pass if made again. */
export function errorCodeSentence(code: number | undefined): string {
  const name = ERROR_NAMES.get(code ?? ErrorCode.Internal) ?? 'Internal';
  return RETRYABLE.has(code ?? NaN)
    ? `Error code: ${name}. Calling again as it is may work.`
    : `Error code: ${name}. Calling again as it is will not help; do what the message says first.`;
}

/** A failed call's result: the reason as the first text, its code second, and no structured content. */
export function errorResult(code: number | undefined, message: string): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: message },
      { type: 'text', text: errorCodeSentence(code) },
    ],
  };
}

/**
 * Gives every tool registered on `server` from now on the window hint: in its output schema, and
 * in each result that has structured content (a success), once a window has been reached.
 */
export function addWindowHint(server: McpServer, reachedWindow: () => string | undefined): void {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: ToolConfig,
    callback: ToolCallback,
  ) => ReturnType<McpServer['registerTool']>;
  const hinted = (name: string, config: ToolConfig, callback: ToolCallback) =>
    register(name, { ...config, outputSchema: config.outputSchema?.extend(WINDOW_HINT) }, async (...args) => {
      const result = await callback(...args);
      const window = reachedWindow();
      const structured = result.structuredContent;
      if (window === undefined || typeof structured !== 'object' || structured === null) return result;
      return { ...result, structuredContent: { ...structured, window } };
    });
  server.registerTool = hinted as unknown as McpServer['registerTool'];
}

type ToolConfig = { outputSchema?: z.ZodObject } & Record<string, unknown>;
type ToolCallback = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;
