// The IPC contract between the extension (server) and the MCP server (client): env var names,
// wire messages, the method table with each method's params and result schemas, and error codes.
// Both sides validate every message they receive against these schemas.

import { z } from 'zod';
import { FINDING_SEVERITIES, FINDING_STATES, MAX_FEEDBACK_TEXT, type FindingSeverity } from './findingTerms';

export { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from './environment';

/** 2: the hello carries a nonce, and both ends prove they hold the token (shared/authProof.ts). */
export const PROTOCOL_VERSION = 2;
export const MAX_REVIEW_BYTES = 10 * 1024 * 1024;
/**
 * A present-review this large takes long enough to follow: about 0.4 s at 256 KiB and 4.5 s at
 * 5 MiB, where a smaller one is done in well under 0.2 s, i.e. one or two progress updates at
 * ten a second. The window renders such a review before showing it, so that a cancel can stop it
 * (extension/src/bridge/presentReview.ts), and the MCP server asks for its progress.
 */
export const LARGE_REVIEW_BYTES = 256 * 1024;
/** Bounds on the other strings of present-review, so that the frame limit below can cover it. */
export const MAX_SECTION_CHARS = 1000;
export const MAX_CWD_CHARS = 4096;
/** An assistant's name (MCP clientInfo) is cut to this many characters before it is sent. */
export const MAX_ASSISTANT_CHARS = 200;
/**
 * The largest line either side accepts after the handshake. It must hold the largest request the
 * schema accepts once JSON-escaped: JSON.stringify writes a control character (1 UTF-8 byte) as
 * six bytes (`\u0001`) and a lone surrogate (3 bytes) as six, so 6x the review's bytes is the
 * worst case; the megabyte covers the title, section, cwd (6x their UTF-16 length at most) and
 * the envelope. A review the schema accepts is then never cut off by the framing.
 */
export const MAX_FRAME_BYTES = 6 * MAX_REVIEW_BYTES + 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
/** The longest a client may wait for one request (REDLINE_TIMEOUT_MS), and so the longest the window works on it. */
export const MAX_REQUEST_TIMEOUT_MS = 600_000;

export const ErrorCode = {
  ParseError: -32700,
  InvalidMessage: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  Unauthorized: 4001,
  LineTooLong: 4002,
  Cancelled: 4003,
  Timeout: 4004,
  Disconnected: 4005,
  NotConfigured: 4006,
  Unreachable: 4007,
  NotFound: 4008,
  /** A request too large to send; the message says how large and how to split it. */
  TooLarge: 4009,
  /** Too many requests in flight on one connection; retry when some have answered. */
  Busy: 4010,
  /** The two ends speak different protocol versions. */
  VersionMismatch: 4011,
  /** The user said no (e.g. to opening a file outside the workspace). */
  Refused: 4012,
  /**
   * The window's token changed: this connection only finishes what it was running. The request
   * was not run; the client sends it again on a new connection, without its caller noticing.
   */
  Retired: 4013,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error that crosses the socket: it has a code the other side can act on. */
export class IpcError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IpcError';
  }
}

// ---- payloads -------------------------------------------------------------------------------

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export const ReviewMode = z.enum(['replace', 'update-section', 'append']);
export type ReviewMode = z.infer<typeof ReviewMode>;

export const Section = z.object({
  level: z.number().int().min(1).max(6),
  title: z.string(),
  /** 1-based line of the heading in the review's markdown. */
  line: z.number().int().min(1),
});
export type Section = z.infer<typeof Section>;

export const BrokenReference = z.object({
  /** The reference as written in the review. */
  reference: z.string(),
  /** 1-based line of the review where it appears. */
  line: z.number().int().min(1),
  reason: z.string(),
});
export type BrokenReference = z.infer<typeof BrokenReference>;

export const ReferenceReport = z.object({
  total: z.number().int().min(0),
  resolved: z.number().int().min(0),
  /** Past the render's I/O budget: neither resolved nor broken, and never to be called broken. Absent means 0. */
  unchecked: z.number().int().min(0).optional(),
  broken: z.array(BrokenReference),
});
export type ReferenceReport = z.infer<typeof ReferenceReport>;

export { FINDING_SEVERITIES, FINDING_STATES, MAX_FEEDBACK_TEXT, type FindingSeverity };
export const FindingState = z.enum(FINDING_STATES);
export type FindingState = z.infer<typeof FindingState>;

/** A list item of the review whose first file reference resolved (a paragraph also needs a severity label), anchored there. */
export const Finding = z.object({
  /** Stable: the same text keeps its id through appends and section updates. */
  id: z.string(),
  severity: z.enum(FINDING_SEVERITIES).nullable(),
  title: z.string(),
  /** The reference as written in the review. */
  reference: z.string(),
  file: z.string(),
  /** 1-based lines where that code is now, which moves as the user edits. */
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  state: FindingState,
  /** The code the finding pointed at is gone, or changed past recognition. */
  stale: z.boolean(),
});
export type Finding = z.infer<typeof Finding>;

/**
 * The calling assistant's name, from MCP clientInfo. Each assistant has its own review in the
 * window (a tab in the panel), and is the author of its findings in the editor. Absent: the
 * window's first assistant.
 */
export const Assistant = z.string().min(1).max(MAX_ASSISTANT_CHARS).optional();

export const PresentReviewParams = z
  .object({
    content: z.string().refine((text) => utf8Bytes(text) <= MAX_REVIEW_BYTES, {
      message: `content is larger than ${MAX_REVIEW_BYTES / 1024 / 1024} MiB`,
    }),
    mode: ReviewMode.default('replace'),
    section: z.string().min(1).max(MAX_SECTION_CHARS).optional(),
    title: z.string().max(500).optional(),
    /** Where the assistant runs: relative references resolve here first. */
    cwd: z.string().max(MAX_CWD_CHARS).optional(),
    assistant: Assistant,
  })
  .refine((p) => p.mode !== 'update-section' || (p.section !== undefined && p.section.trim() !== ''), {
    message: 'mode "update-section" needs "section": the heading text whose body to replace',
    path: ['section'],
  });
export type PresentReviewParams = z.input<typeof PresentReviewParams>;

/** A reply's outline stays a summary: a review may have tens of thousands of headings. */
export const MAX_REPLY_SECTIONS = 1_000;

export const PresentReviewResult = z.object({
  revision: z.number().int().min(1),
  title: z.string().optional(),
  /**
   * The review's sections; after an append, only those it added, so that a thousand appends
   * do not send the whole outline back a thousand times. At most MAX_REPLY_SECTIONS, the first
   * ones: `sectionCount` counts them all, and get-review has them all.
   */
  sections: z.array(Section),
  sectionCount: z.number().int().min(0),
  references: ReferenceReport,
  /** The findings of what this call sent (after an append, the new part only). */
  findings: z.array(Finding),
});
export type PresentReviewResult = z.infer<typeof PresentReviewResult>;

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
function orNull<T extends z.ZodType>(value: T, whenNull: string) {
  return z.union([value, z.null().describe(whenNull)]);
}

export const GetSelectionResult = z.object({
  editor: z
    .object({
      path: z.string(),
      relativePath: orNull(z.string().describe('The path relative to its workspace folder.'), 'The file is outside every workspace folder.'),
      workspaceFolder: orNull(z.string().describe('The workspace folder that holds the file.'), 'The file is outside every workspace folder.'),
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

export const GetReviewParams = z
  .object({
    /** Also say how the findings stand against the review this one replaced. */
    compareWithPrevious: z.boolean().optional(),
    assistant: Assistant,
  })
  .strict();
export type GetReviewParams = z.infer<typeof GetReviewParams>;

const ComparedFinding = Finding.pick({ id: true, severity: true, title: true, reference: true, state: true });

/** How a review's findings stand against those of the review before it (matched by text, then by title). */
export const ReviewComparison = z.object({
  revision: z.number().int().min(1),
  previous: z.object({ revision: z.number().int().min(1), title: z.string().optional(), updatedAt: z.string() }),
  /** Only in this review. */
  new: z.array(ComparedFinding),
  /** Gone from this review, or in it and marked resolved. */
  fixed: z.array(ComparedFinding.extend({ how: z.enum(['gone', 'resolved']) })),
  /** In both, neither resolved nor declined. */
  stillOpen: z.array(ComparedFinding),
  /** In both, marked "won't fix". */
  declined: z.array(ComparedFinding),
});
export type ReviewComparison = z.infer<typeof ReviewComparison>;

export const GetReviewResult = z.object({
  /** 0 when nothing has been presented in this window yet. */
  revision: z.number().int().min(0),
  title: z.string().optional(),
  markdown: z.string(),
  sections: z.array(Section),
  updatedAt: z.string().optional(),
  findings: z.array(Finding),
  /** Asked for with `compareWithPrevious`; null when there is no earlier review to compare with. */
  comparison: ReviewComparison.nullable().optional(),
});
export type GetReviewResult = z.infer<typeof GetReviewResult>;

/** One thing the user said or decided about the review, in the order they happened. */
export const FeedbackItem = z.object({
  /** Its place in the window's feedback: also a cursor. */
  id: z.string(),
  kind: z.enum(['reply', 'state', 'message']),
  findingId: z.string().optional(),
  text: z.string().max(MAX_FEEDBACK_TEXT).optional(),
  state: FindingState.optional(),
  /** The finding's reference, so the assistant need not look it up. */
  reference: z.string().optional(),
  at: z.string(),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/** A cursor is the id of the last item read; absent, everything kept is returned. */
const Cursor = z.string().regex(/^\d{1,15}$/, 'a cursor is a value of "cursor" from an earlier feedback result');

export const GetReviewFeedbackParams = z.object({ since: Cursor.optional(), assistant: Assistant }).strict();
export type GetReviewFeedbackParams = z.infer<typeof GetReviewFeedbackParams>;

export const GetReviewFeedbackResult = z.object({
  /** Pass as `since` next time to get only what is newer. */
  cursor: z.string(),
  items: z.array(FeedbackItem),
  /** Set when items older than the oldest kept were asked for and are gone. */
  truncated: z.boolean().optional(),
});
export type GetReviewFeedbackResult = z.infer<typeof GetReviewFeedbackResult>;

// ---- the editor's context -------------------------------------------------------------------

/** get-diagnostics returns at most this many, most severe first, so one call stays small. */
export const MAX_DIAGNOSTICS = 500;
/** Longer diagnostic messages and editor lists are cut here. */
export const MAX_OPEN_EDITORS = 500;

export const DiagnosticSeverity = z.enum(['error', 'warning', 'information', 'hint']);
export type DiagnosticSeverity = z.infer<typeof DiagnosticSeverity>;

export const GetDiagnosticsParams = z.object({
  /** One file: workspace-relative or absolute. Every file of the workspace when absent. */
  file: z.string().min(1).max(4096).optional(),
  /** The least severe to include: "warning" gives errors and warnings. All by default. */
  severity: DiagnosticSeverity.optional(),
}).strict();
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
  code: z.union([z.string().describe('A code the checker names.'), z.number().describe('A code the checker numbers.')]).optional(),
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
  languageId: orNull(z.string().describe('VS Code\'s language of the document.'), 'Not known until VS Code loads the document (the visible ones always are).'),
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

// ---- earlier reviews, and what prompts complete ---------------------------------------------

export const ListReviewHistoryParams = z.object({ assistant: Assistant }).strict();
export type ListReviewHistoryParams = z.infer<typeof ListReviewHistoryParams>;

export const EarlierReviewEntry = z.object({
  /** The revision it had when it was current: it names the review for as long as it is kept. */
  revision: z.number().int().min(1),
  title: z.string().optional(),
  updatedAt: z.string(),
  /** Size of its markdown in UTF-8 bytes. */
  bytes: z.number().int().min(0),
});
export type EarlierReviewEntry = z.infer<typeof EarlierReviewEntry>;

/** Newest first; only what the window keeps (the `redline.historySize` setting). */
export const ListReviewHistoryResult = z.object({ entries: z.array(EarlierReviewEntry) });
export type ListReviewHistoryResult = z.infer<typeof ListReviewHistoryResult>;

export const GetEarlierReviewParams = z.object({ revision: z.number().int().min(1), assistant: Assistant }).strict();
export type GetEarlierReviewParams = z.infer<typeof GetEarlierReviewParams>;

/** NotFound when the window no longer keeps that revision. */
export const GetEarlierReviewResult = EarlierReviewEntry.omit({ bytes: true }).extend({ markdown: z.string() });
export type GetEarlierReviewResult = z.infer<typeof GetEarlierReviewResult>;

/** Completions return at most this many values: MCP's own limit for one completion result. */
export const MAX_COMPLETIONS = 100;

/** What the user has typed so far of a prompt argument. */
const CompletionPrefix = z.string().max(4096);

export const ListGitRefsParams = z.object({ prefix: CompletionPrefix }).strict();
export type ListGitRefsParams = z.infer<typeof ListGitRefsParams>;

export const GitRef = z.object({
  /** As git writes it short: "main", "origin/main", "v1.2". */
  name: z.string(),
  kind: z.enum(['head', 'branch', 'remote', 'tag']),
});
export type GitRef = z.infer<typeof GitRef>;

/** The workspace's refs starting with the prefix; `truncated` when there were more than MAX_COMPLETIONS. */
export const ListGitRefsResult = z.object({ refs: z.array(GitRef).max(MAX_COMPLETIONS), truncated: z.boolean() });
export type ListGitRefsResult = z.infer<typeof ListGitRefsResult>;

export const FindWorkspaceFilesParams = z.object({ prefix: CompletionPrefix }).strict();
export type FindWorkspaceFilesParams = z.infer<typeof FindWorkspaceFilesParams>;

/** Workspace-relative paths (with the folder's name first in a multi-root workspace). */
export const FindWorkspaceFilesResult = z.object({ files: z.array(z.string()).max(MAX_COMPLETIONS), truncated: z.boolean() });
export type FindWorkspaceFilesResult = z.infer<typeof FindWorkspaceFilesResult>;

const NoParams = z.object({}).strict();

/**
 * Every request the MCP server can make. A handler table typed over this record makes a
 * missing handler a compile error; the timeout is how long the client waits for a reply.
 */
export const methods = {
  'present-review': { params: PresentReviewParams, result: PresentReviewResult, timeoutMs: 30_000 },
  'get-selection': { params: NoParams, result: GetSelectionResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'open-location': { params: OpenLocationParams, result: OpenLocationResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-review': { params: GetReviewParams, result: GetReviewResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-review-feedback': { params: GetReviewFeedbackParams, result: GetReviewFeedbackResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-diagnostics': { params: GetDiagnosticsParams, result: GetDiagnosticsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'list-open-editors': { params: NoParams, result: ListOpenEditorsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-workspace-folders': { params: NoParams, result: GetWorkspaceFoldersResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'list-review-history': { params: ListReviewHistoryParams, result: ListReviewHistoryResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'get-earlier-review': { params: GetEarlierReviewParams, result: GetEarlierReviewResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'list-git-refs': { params: ListGitRefsParams, result: ListGitRefsResult, timeoutMs: DEFAULT_TIMEOUT_MS },
  'find-workspace-files': { params: FindWorkspaceFilesParams, result: FindWorkspaceFilesResult, timeoutMs: DEFAULT_TIMEOUT_MS },
} as const;
export type Method = keyof typeof methods;
export type ParamsOf<M extends Method> = z.input<(typeof methods)[M]['params']>;
export type ValidParamsOf<M extends Method> = z.output<(typeof methods)[M]['params']>;
export type ResultOf<M extends Method> = z.infer<(typeof methods)[M]['result']>;
export const methodNames = Object.keys(methods) as Method[];

/** Events the extension pushes to every connected MCP server. */
/**
 * Whose review an event is about: the assistant's name (absent while the window's first review
 * has none), and `primary` for the window's first review, which calls without a name reach. Each
 * MCP server passes on only its own assistant's events (see reviewEventIsFor).
 */
const ReviewOwner = { assistant: z.string().max(MAX_ASSISTANT_CHARS).optional(), primary: z.boolean().optional() };

export const events = {
  'review-changed': z.object({ revision: z.number().int().min(0), ...ReviewOwner }),
  /** The user gave feedback; `cursor` is the newest item's id. */
  'feedback-added': z.object({ cursor: z.string(), ...ReviewOwner }),
  /** An assistant's earlier reviews changed: one was added (a replace, a clear) or trimmed. */
  'history-changed': z.object({ ...ReviewOwner }),
  /** The window's token changed: send new requests on a new connection; this one answers what it runs, then closes. */
  'connection-retiring': z.object({}),
  /** The user's selection or active editor changed; read it with get-selection. Sent at most a few times a second. */
  'selection-changed': z.object({}),
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

/**
 * Whether a review event is about the review of the assistant named `name` (undefined: a client
 * that gave none, whose calls reach the window's first review). An event that names no owner, or
 * is about a first review no assistant has claimed yet, is everyone's.
 */
export function reviewEventIsFor(payload: unknown, name: string | undefined): boolean {
  const owner = (typeof payload === 'object' && payload !== null ? payload : {}) as { assistant?: unknown; primary?: unknown };
  if (owner.assistant === undefined) return owner.primary === undefined || owner.primary === true;
  return owner.assistant === name || (name === undefined && owner.primary === true);
}

// ---- wire messages --------------------------------------------------------------------------

const Id = z.string().min(1).max(64);

// The handshake (see shared/authProof.ts): the client sends `hello` with a fresh nonce; the
// server answers with a `Challenge` that proves it holds the token; only then does the client
// send `auth` with its own proof, answered by `HelloResult`. The token itself never crosses.

/** 32 random bytes, hex. */
const Nonce = z.string().regex(/^[0-9a-f]{64}$/);
/** An HMAC-SHA256, hex. */
const Proof = z.string().regex(/^[0-9a-f]{64}$/);

export const HelloMessage = z.object({
  type: z.literal('hello'),
  id: Id,
  clientNonce: Nonce,
  protocolVersion: z.number().int(),
  client: z.object({ name: z.string().max(200), version: z.string().max(50), pid: z.number().int() }),
});
export type HelloMessage = z.infer<typeof HelloMessage>;

/** The server's answer to a hello. */
export const Challenge = z.object({
  protocolVersion: z.number().int(),
  serverNonce: Nonce,
  serverProof: Proof,
});
export type Challenge = z.infer<typeof Challenge>;

export const AuthMessage = z.object({ type: z.literal('auth'), id: Id, clientProof: Proof });
export type AuthMessage = z.infer<typeof AuthMessage>;

/** The server's answer to an accepted auth: the connection is open for requests. */
export const HelloResult = z.object({
  protocolVersion: z.number().int(),
  server: z.object({ name: z.string(), version: z.string(), pid: z.number().int() }),
});
export type HelloResult = z.infer<typeof HelloResult>;

/**
 * Which assistant sent a request (its MCP clientInfo name), for the window's Activity view. Only a
 * label: one that is too long is cut rather than the request refused, and an empty one is absent.
 * Optional, so that requests from MCP servers that do not send it stay valid.
 */
export const RequestClient = z
  .string()
  .transform((name) => name.trim().slice(0, MAX_ASSISTANT_CHARS) || undefined)
  .optional();

export const RequestMessage = z.object({
  type: z.literal('request'),
  id: Id,
  method: z.string().max(100),
  params: z.unknown(),
  client: RequestClient,
  /**
   * How long the client waits for the reply; the window gives the handler as long, so that a
   * longer timeout configured for one tool in the MCP server is not cut short by the window's own.
   */
  timeoutMs: z.number().int().min(1).max(MAX_REQUEST_TIMEOUT_MS).optional(),
  /** The client follows this request's progress: the window may send `progress` messages for it. */
  progress: z.boolean().optional(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const CancelMessage = z.object({ type: z.literal('cancel'), id: Id });
export type CancelMessage = z.infer<typeof CancelMessage>;

export const ClientMessage = z.discriminatedUnion('type', [HelloMessage, AuthMessage, RequestMessage, CancelMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const WireError = z.object({ code: z.number().int(), message: z.string() });

export const ResponseMessage = z.union([
  z.object({ type: z.literal('response'), id: Id, result: z.unknown() }).strict(),
  z.object({ type: z.literal('response'), id: Id.nullable(), error: WireError }).strict(),
]);
export type ResponseMessage = z.infer<typeof ResponseMessage>;

export const EventMessage = z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() });
export type EventMessage = z.infer<typeof EventMessage>;

export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/**
 * How far a request the client follows has come: only for a request sent with `progress: true`, at
 * a bounded rate, never after its response. A client ignores one for an id it does not wait for.
 */
export const ProgressMessage = z.object({
  type: z.literal('progress'),
  id: Id,
  /** Increases from one message to the next; out of `total` when that is known. */
  progress: z.number().finite().min(0),
  total: z.number().finite().positive().optional(),
  message: z.string().max(MAX_PROGRESS_MESSAGE_CHARS),
});
export type ProgressMessage = z.infer<typeof ProgressMessage>;
export type ProgressUpdate = Omit<ProgressMessage, 'type' | 'id'>;

export const ServerMessage = z.union([ResponseMessage, EventMessage, ProgressMessage]);
export type ServerMessage = z.infer<typeof ServerMessage>;

export function isMethod(name: string): name is Method {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

/** The first problem zod found, as one readable sentence for an error reply. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
