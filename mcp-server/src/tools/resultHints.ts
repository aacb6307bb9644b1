// What every tool result tells the model besides its own data, in the structured content: Claude
// Code and Codex hand the model that rather than the text, so a hint in the text alone never
// reaches it. A result says which window answered and how it was found; a failure says what went
// wrong and whether calling again as it is may work. Applied where the server is made
// (server.ts), so that no tool can forget it.

import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ErrorCode } from '../../../shared/protocol';

export const WINDOW_HINT = {
  window: z.string().optional().describe('The VS Code window that answered, and how it was found.'),
};

/** Failures that may pass when the same call is made again: nothing about the call was wrong. */
const RETRYABLE = new Set<number>([ErrorCode.Busy, ErrorCode.Timeout, ErrorCode.Disconnected]);
const ERROR_NAMES = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

export interface ErrorHint {
  /** ErrorCode's name ("Busy", "Unreachable"…), or "Internal" for an error without a code. */
  readonly code: string;
  /** What happened and what to do about it, as the text says. */
  readonly message: string;
  readonly retry: boolean;
}

/** A failed call's result: the message as text, and the same with its code in the structured content. */
export function errorResult(code: number | undefined, message: string): CallToolResult {
  const error: ErrorHint = { code: ERROR_NAMES.get(code ?? ErrorCode.Internal) ?? 'Internal', message, retry: RETRYABLE.has(code ?? NaN) };
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error } };
}

/**
 * Gives every tool registered on `server` from now on the window hint: in its output schema, and
 * in each result that has structured content, once a window has been reached.
 */
export function addWindowHint(server: McpServer, reachedWindow: () => string | undefined): void {
  const register = server.registerTool.bind(server) as (name: string, config: ToolConfig, callback: ToolCallback) => ReturnType<McpServer['registerTool']>;
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
