// How every tool turns a bridge call into an MCP result: structured content and text on success,
// `isError` with text alone on failure (resultHints.ts). Some clients hand the model only a
// success's structured content, so what to do next is in it too, as `nextSteps`.

import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorResult } from './resultHints';

/** The field a tool's output schema gains when its result says what to do next. */
export const NEXT_STEPS = {
  nextSteps: z.array(z.string()).optional().describe('What to do next with this result, in plain words.'),
};

export async function toolResult<T extends object>(
  call: () => Promise<T>,
  describe: (result: T) => string,
  nextSteps?: (result: T) => string[],
): Promise<CallToolResult> {
  try {
    const result = await call();
    const steps = nextSteps?.(result) ?? [];
    return {
      structuredContent: (steps.length > 0 ? { ...result, nextSteps: steps } : result) as Record<string, unknown>,
      content: [{ type: 'text', text: describe(result) }],
    };
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    return errorResult(typeof code === 'number' ? code : undefined, (error as Error)?.message ?? String(error));
  }
}
