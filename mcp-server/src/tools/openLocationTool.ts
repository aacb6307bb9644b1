// open-location: opens a file in VS Code at a line or range and selects it, to point the user at
// code. Not read-only: outside the workspace it asks the user, and what it opens is then shown.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { OpenLocationResult } from '../../../shared/protocol';
import { bridgeFor, type ToolContext } from './toolContext';
import { toolResult } from './toolResult';

export function registerOpenLocationTool(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'open-location',
    {
      title: 'Open a location in VS Code',
      description:
        "Open a file in the user's VS Code editor and select a line or range, to show them the code you are talking about. " +
        'Pass a reference such as src/auth.ts:42, src/auth.ts:40-55, src/auth.ts#L40-L55 or an absolute path; ' +
        'relative paths resolve against your working directory (when it is in the workspace), then the workspace folders. ' +
        'A file outside the workspace folders opens only if the user agrees in a dialog; ' +
        'if they decline, the call fails and says so.',
      inputSchema: z.object({
        reference: z
          .string()
          .min(1)
          .max(4096)
          .describe('path:line, path:line:column, path:start-end, path#L10-L20, or a file:// URI'),
      }),
      outputSchema: OpenLocationResult,
      // Not read-only: it changes what the user sees and, outside the workspace, asks them first.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, ctx) =>
      toolResult(
        () =>
          bridge.request(
            'open-location',
            { reference: args.reference, cwd: context.cwd },
            { signal: ctx.mcpReq.signal },
          ),
        (result) =>
          `Opened ${result.path} at ${result.start.line}:${result.start.column}-${result.end.line}:${result.end.column}.` +
          (result.clampedFrom
            ? ` Line ${result.clampedFrom} is past the end of the file, so the last line was selected.`
            : ''),
      ),
  );
}
