// get-selection: what the user is looking at — the active editor's file and selections.

import type { McpServer } from '@modelcontextprotocol/server';
import { GetSelectionResult, MAX_SELECTION_TEXT } from '../../../shared/protocol';
import { bridgeFor, type ToolContext } from './toolContext';
import { toolResult } from './toolResult';
import { z } from 'zod';

export function registerGetSelectionTool(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'get-selection',
    {
      title: "Get the user's selection in VS Code",
      description:
        "Get the file open in the user's active VS Code editor and the text they have selected, with 1-based line and column ranges. " +
        'Use it when the user says "this", "here" or "the selected code", or asks about what they are looking at. ' +
        `At most ${MAX_SELECTION_TEXT / 1024} KiB of selected text is returned. The text of a file outside the workspace that was opened ` +
        'for an assistant is withheld until the user selects in it themselves.',
      inputSchema: z.object({}),
      outputSchema: GetSelectionResult,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (_args, ctx) =>
      toolResult(() => bridge.request('get-selection', {}, { signal: ctx.mcpReq.signal }), describeSelection),
  );
}

function describeSelection({ editor }: GetSelectionResult): string {
  if (!editor) return 'No editor is open in VS Code, so nothing is selected. Ask the user to open the file they mean.';
  const name = editor.relativePath ?? editor.path;
  const header = `${name} (${editor.languageId}${editor.isDirty ? ', unsaved changes' : ''})`;
  const parts = editor.selections.map((selection) => {
    const range = `${selection.start.line}:${selection.start.column}-${selection.end.line}:${selection.end.column}`;
    if (selection.isEmpty) return `Cursor at ${selection.start.line}:${selection.start.column}`;
    if (selection.withheld) {
      return (
        `Selected ${range}; its text is withheld: this file is outside the workspace and was opened for an assistant, ` +
        'and the user has not selected in it since. Ask the user to select the lines they want to share.'
      );
    }
    const cut = selection.truncated
      ? `\n[Cut here: get-selection returns at most ${MAX_SELECTION_TEXT / 1024} KiB of text. Ask the user to select less, or read the file itself.]`
      : '';
    return `Selected ${range}:\n${selection.text}${cut}`;
  });
  return [header, ...parts].join('\n');
}
