// The editor's context beyond the selection: what is wrong (diagnostics), what is open, and which
// folders the window has. All three only read.

import type { McpServer } from '@modelcontextprotocol/server';
import {
  GetDiagnosticsParams,
  GetDiagnosticsResult,
  GetWorkspaceFoldersResult,
  ListOpenEditorsResult,
  MAX_DIAGNOSTICS,
} from '../../../shared/protocol';
import { bridgeFor, type ToolContext } from './toolContext';
import { toolResult } from './toolResult';
import { z } from 'zod';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function registerEditorContextTools(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'get-diagnostics',
    {
      title: 'Get the problems VS Code reports',
      description:
        'Get the diagnostics (type errors, lint warnings…) that VS Code shows in its Problems view for files of the workspace, ' +
        'with workspace-relative path, 1-based range, severity, source and code. `file` narrows it to one file (relative or absolute); ' +
        '`severity` is the least severe to include ("warning" gives errors and warnings). ' +
        `At most ${MAX_DIAGNOSTICS} are returned, most severe first. Files outside the workspace are never included.`,
      inputSchema: GetDiagnosticsParams,
      outputSchema: GetDiagnosticsResult,
      annotations: READ_ONLY,
    },
    (args, ctx) =>
      toolResult(() => bridge.request('get-diagnostics', args, { signal: ctx.mcpReq.signal }), describeDiagnostics),
  );
  server.registerTool(
    'list-open-editors',
    {
      title: 'List the editors open in VS Code',
      description:
        "List the files of the workspace open in the user's VS Code editor tabs, group by group: path (and workspace-relative path), language, " +
        'unsaved changes, whether it is the active editor and whether it is visible. Files outside the workspace are only counted.',
      inputSchema: z.object({}),
      outputSchema: ListOpenEditorsResult,
      annotations: READ_ONLY,
    },
    (_args, ctx) =>
      toolResult(() => bridge.request('list-open-editors', {}, { signal: ctx.mcpReq.signal }), describeEditors),
  );
  server.registerTool(
    'get-workspace-folders',
    {
      title: "Get the VS Code window's workspace folders",
      description:
        'Get the folders open in the VS Code window this server is connected to, with their names and absolute paths.',
      inputSchema: z.object({}),
      outputSchema: GetWorkspaceFoldersResult,
      annotations: READ_ONLY,
    },
    (_args, ctx) =>
      toolResult(() => bridge.request('get-workspace-folders', {}, { signal: ctx.mcpReq.signal }), describeFolders),
  );
}

function describeDiagnostics({ diagnostics, total, truncated }: GetDiagnosticsResult): string {
  if (total === 0) return 'VS Code reports no problems for these files.';
  const lines = diagnostics.map(
    (d) =>
      `${d.path}:${d.start.line}:${d.start.column} ${d.severity}${d.source ? ` [${d.source}${d.code !== undefined ? ` ${d.code}` : ''}]` : ''}: ${d.message}`,
  );
  const cut = truncated ? `\n[${total - diagnostics.length} more not shown: narrow it with file or severity.]` : '';
  return `${total} problem${total === 1 ? '' : 's'}:\n${lines.join('\n')}${cut}`;
}

function describeEditors({ editors, truncated, outsideWorkspace }: ListOpenEditorsResult): string {
  const outside = outsideWorkspace > 0 ? `[${outsideWorkspace} more open outside the workspace, not listed.]` : '';
  if (editors.length === 0)
    return ['No file of the workspace is open in an editor.', outside].filter(Boolean).join('\n');
  const lines = editors.map((e) => {
    const flags = [
      e.languageId,
      e.isDirty ? 'unsaved changes' : undefined,
      e.isActive ? 'active' : e.isVisible ? 'visible' : undefined,
    ].filter(Boolean);
    return `${e.relativePath} (group ${e.group}${flags.length > 0 ? `, ${flags.join(', ')}` : ''})`;
  });
  return [...lines, truncated ? '[More editors are open than listed.]' : '', outside].filter(Boolean).join('\n');
}

function describeFolders({ folders }: GetWorkspaceFoldersResult): string {
  if (folders.length === 0) return 'The VS Code window has no folder open.';
  return folders.map((folder) => `${folder.name}: ${folder.path}`).join('\n');
}
