// How every tool turns a bridge call into an MCP result: structured content plus readable text
// on success, and on failure `isError` with text alone, a message that tells the assistant what to
// do (resultHints.ts). Claude Code and Codex hand the model a success's structured content and not
// its text (test/assistants), so what the assistant should do next is in it too, as `nextSteps`;
// a failure reaches every client's model as its text.

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
