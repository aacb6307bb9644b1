// The editor's context an assistant may read: the selection, diagnostics, open editors, folders.

import { z } from 'zod';

export const Position = z.object({ line: z.number().int().min(1), column: z.number().int().min(1) });

/** get-selection returns at most this many characters of selected text in all, so one call stays small. */
export const MAX_SELECTION_TEXT = 64 * 1024;

export const SelectionInfo = z.object({
  start: Position,
  end: Position,
  isEmpty: z.boolean(),
  /** The selected text; empty when withheld, cut at MAX_SELECTION_TEXT (shared by all selections) when truncated. */
  text: z.string(),
  /** Set when `text` is only the start of the selection. */
  truncated: z.boolean().optional(),
  /** Set when the text is held back: the file is outside the workspace and the user has not selected in it. */
  withheld: z.boolean().optional(),
});

/**
 * `value`, or null for the reason given. Each alternative carries its own description, so that the
 * JSON Schema sent to clients is an anyOf rather than a type array (`["string", "null"]`), which
 * strict clients and the Inspector's --strict flag refuse as unportable.
 */
export function orNull<T extends z.ZodType>(value: T, whenNull: string) {
  return z.union([value, z.null().describe(whenNull)]);
}

export const GetSelectionResult = z.object({
  editor: z
    .object({
      path: z.string(),
      relativePath: orNull(
        z.string().describe('The path relative to its workspace folder.'),
        'The file is outside every workspace folder.',
      ),
      workspaceFolder: orNull(
        z.string().describe('The workspace folder that holds the file.'),
        'The file is outside every workspace folder.',
      ),
      languageId: z.string(),
      isDirty: z.boolean(),
      isUntitled: z.boolean(),
      lineCount: z.number().int().min(0),
      selections: z.array(SelectionInfo),
    })
    .nullable(),
});
export type GetSelectionResult = z.infer<typeof GetSelectionResult>;

export const OpenLocationParams = z.object({
  reference: z.string().min(1).max(4096),
  cwd: z.string().optional(),
});
export type OpenLocationParams = z.infer<typeof OpenLocationParams>;

export const OpenLocationResult = z.object({
  path: z.string(),
  start: Position,
  end: Position,
  /** Set when the requested line was past the end of the file and was moved to the last line. */
  clampedFrom: z.number().int().optional(),
});
export type OpenLocationResult = z.infer<typeof OpenLocationResult>;

/** get-diagnostics returns at most this many, most severe first, so one call stays small. */
export const MAX_DIAGNOSTICS = 500;
/** Longer diagnostic messages and editor lists are cut here. */
export const MAX_OPEN_EDITORS = 500;

export const DiagnosticSeverity = z.enum(['error', 'warning', 'information', 'hint']);
export type DiagnosticSeverity = z.infer<typeof DiagnosticSeverity>;

export const GetDiagnosticsParams = z
  .object({
    /** One file: workspace-relative or absolute. Every file of the workspace when absent. */
    file: z.string().min(1).max(4096).optional(),
    /** The least severe to include: "warning" gives errors and warnings. All by default. */
    severity: DiagnosticSeverity.optional(),
  })
  .strict();
export type GetDiagnosticsParams = z.infer<typeof GetDiagnosticsParams>;

export const DiagnosticInfo = z.object({
  /** Relative to its workspace folder. */
  path: z.string(),
  workspaceFolder: z.string(),
  start: Position,
  end: Position,
  severity: DiagnosticSeverity,
  message: z.string(),
  source: z.string().optional(),
  code: z
    .union([z.string().describe('A code the checker names.'), z.number().describe('A code the checker numbers.')])
    .optional(),
});
export type DiagnosticInfo = z.infer<typeof DiagnosticInfo>;

export const GetDiagnosticsResult = z.object({
  diagnostics: z.array(DiagnosticInfo),
  /** How many matched before the cut at MAX_DIAGNOSTICS. */
  total: z.number().int().min(0),
  truncated: z.boolean(),
});
export type GetDiagnosticsResult = z.infer<typeof GetDiagnosticsResult>;

export const OpenEditorInfo = z.object({
  path: z.string(),
  /** Relative to its workspace folder: files outside every folder are not listed, only counted. */
  relativePath: z.string(),
  languageId: orNull(
    z.string().describe("VS Code's language of the document."),
    'Not known until VS Code loads the document (the visible ones always are).',
  ),
  isDirty: z.boolean(),
  /** The tab in focus in the active group. */
  isActive: z.boolean(),
  /** Shown in some editor group now. */
  isVisible: z.boolean(),
  /** The editor group (column), 1 first. */
  group: z.number().int().min(1),
});

export const ListOpenEditorsResult = z.object({
  editors: z.array(OpenEditorInfo),
  truncated: z.boolean(),
  /** Tabs of files outside the workspace folders: their paths are not the assistant's to know. */
  outsideWorkspace: z.number().int().min(0),
});
export type ListOpenEditorsResult = z.infer<typeof ListOpenEditorsResult>;

export const GetWorkspaceFoldersResult = z.object({
  folders: z.array(z.object({ name: z.string(), path: z.string() })),
});
export type GetWorkspaceFoldersResult = z.infer<typeof GetWorkspaceFoldersResult>;
