// How every tool turns a bridge call into an MCP result: structured content plus readable text
// on success, and on failure `isError` with a message that tells the assistant what to do. Claude
// Code and Codex give the model the structured content rather than the text, so what the assistant
// should do next goes into it too, as `nextSteps`, and a failure's message as `error`
// (resultHints.ts).

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
