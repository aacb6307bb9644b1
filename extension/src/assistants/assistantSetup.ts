// The command or config entry that connects each assistant to Redline, with the server's path,
// and the note on what makes it work. Plain TypeScript with no `vscode` import: the quick pick
// that shows it is connectAssistant.ts. No snippet but Other's names a socket or a token: the
// server finds the window itself (discovery), so one entry serves every project.

import { WORKSPACE_ENV } from '../../../shared/discovery';
import { IPC_PATH_ENV, IPC_TOKEN_ENV } from '../../../shared/protocol';
import { claudeAddArgs } from './claudeCode';
import { serverEntry } from './configFiles/configTargets';
import { SERVER_NAME, ipcEnvironment, type IpcEndpoint, type NodeCommand } from './serverLaunch';
import { shellCommand, type ShellFlavor } from './shellCommand';

export type AssistantId = 'claude-code' | 'cursor' | 'codex' | 'gemini' | 'vscode' | 'other';

export interface AssistantChoice {
  readonly id: AssistantId;
  readonly label: string;
  readonly detail: string;
}

export const ASSISTANTS: readonly AssistantChoice[] = [
  { id: 'claude-code', label: 'Claude Code', detail: 'Runs "claude mcp add" for you, or gives you the command' },
  { id: 'cursor', label: 'Cursor', detail: 'Adds Redline to ~/.cursor/mcp.json' },
  { id: 'codex', label: 'Codex CLI', detail: 'Adds Redline to ~/.codex/config.toml' },
  { id: 'gemini', label: 'Gemini CLI', detail: 'Adds Redline to ~/.gemini/settings.json' },
  {
    id: 'vscode',
    label: 'VS Code (mcp.json)',
    detail: 'Usually nothing to do: Redline registers itself with agent mode',
  },
  {
    id: 'other',
    label: 'Other',
    detail: 'The command line, and the two environment variables that pin it to this window',
  },
];

export type SnippetLanguage = 'shellscript' | 'json' | 'toml' | 'plaintext';

export interface AssistantSetup {
  /** One line: what to do with the snippet. */
  readonly title: string;
  /** The editor language of `text`. */
  readonly language: SnippetLanguage;
  /** Exactly what goes to the clipboard. */
  readonly text: string;
  /** What makes it work, and its limits. */
  readonly note: string;
  /** Whether `text` holds this window's token. */
  readonly containsSecret: boolean;
}

export interface SetupOptions {
  readonly serverPath: string;
  /** Whether `serverPath` is the launcher that survives updates (stableServerPath.ts), not this version's file. */
  readonly stablePath?: boolean;
  readonly nodeCommand: NodeCommand;
  /** This window's connection, for Other; undefined when the bridge is not running. */
  readonly ipc?: IpcEndpoint;
  /** How to quote shell commands; the running platform's by default. */
  readonly shell?: ShellFlavor;
}

type Builder = (options: SetupOptions & { readonly shell: ShellFlavor }) => AssistantSetup;

export function buildSetup(assistant: AssistantId, options: SetupOptions): AssistantSetup {
  // A Windows terminal in VS Code is PowerShell unless the user chose otherwise; the notes give cmd's form too.
  const shell = options.shell ?? (process.platform === 'win32' ? 'powershell' : 'posix');
  return builders[assistant]({ ...options, shell });
}

/** Gemini CLI 0.61 starts no MCP server in an untrusted folder; `gemini mcp list` shows them Disabled there. */
const GEMINI_TRUST_NOTE =
  'Gemini CLI starts MCP servers only in folders you trust: when it asks about your project, choose "Trust folder" ' +
  '(or trust its parent), or change it later with /permissions in Gemini CLI.';

const builders: Record<AssistantId, Builder> = {
  'claude-code': (o) => {
    const argv = ['claude', ...claudeAddArgs(o.serverPath, o.nodeCommand)];
    return {
      title: 'Claude Code: run this once in a terminal',
      language: 'shellscript',
      text: shellCommand(argv, o.shell),
      note: paragraphs(
        `Adds Redline to Claude Code for all your projects. Then start \`claude\` in your project, in any terminal.`,
        discoveryNote,
        `If Redline was added before, remove it first: claude mcp remove ${SERVER_NAME} --scope user`,
        cmdFormNote(argv, o.shell),
        pathNote(o),
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: false,
    };
  },

  codex: (o) => {
    // The same entry that Connect an Assistant writes into the file, one key per line.
    const entry = serverEntry('codex', o.serverPath, o.nodeCommand);
    const lines = [
      `[mcp_servers.${SERVER_NAME}]`,
      ...Object.entries(entry).map(([key, value]) => `${tomlKey(key)} = ${tomlValue(value)}`),
    ];
    return {
      title: 'Codex CLI: add this to ~/.codex/config.toml',
      language: 'toml',
      text: lines.join('\n') + '\n',
      note: paragraphs(
        `Add it to ~/.codex/config.toml (%USERPROFILE%\\.codex\\config.toml on Windows), then start \`codex\` in your project.`,
        `Codex starts MCP servers with only a few variables of its own (HOME, PATH…); env_vars passes Redline's through, such as the ` +
          `window your terminal belongs to and the request timeout you set in VS Code.`,
        discoveryNote,
        pathNote(o),
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: false,
    };
  },

  gemini: (o) => ({
    title: 'Gemini CLI: merge this into ~/.gemini/settings.json',
    language: 'json',
    text: json({ mcpServers: { [SERVER_NAME]: serverEntry('gemini', o.serverPath, o.nodeCommand) } }),
    note: paragraphs(
      `Merge the "${SERVER_NAME}" entry into "mcpServers" in ~/.gemini/settings.json ` +
        `(%USERPROFILE%\\.gemini\\settings.json on Windows), then start \`gemini\` in your project. ` +
        `Gemini CLI cannot read a trailing comma anywhere in that file.`,
      GEMINI_TRUST_NOTE,
      discoveryNote,
      pathNote(o),
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: false,
  }),

  cursor: (o) => ({
    title: 'Cursor: merge this into ~/.cursor/mcp.json',
    language: 'json',
    text: json({ mcpServers: { [SERVER_NAME]: serverEntry('cursor', o.serverPath, o.nodeCommand) } }),
    note: paragraphs(
      `Merge the "${SERVER_NAME}" entry into "mcpServers" in ~/.cursor/mcp.json, your own Cursor settings for all ` +
        `projects (not a project's .cursor folder), and check that Redline is enabled in Cursor's MCP settings.`,
      discoveryNote,
      pathNote(o),
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: false,
  }),

  vscode: (o) => ({
    title: 'VS Code: usually nothing to add (an entry for your user mcp.json is below)',
    language: 'json',
    text: json({ servers: { [SERVER_NAME]: serverEntry('vscode', o.serverPath, o.nodeCommand) } }),
    note: paragraphs(
      `Redline registers its server with VS Code's agent mode in every window: look for Redline in "MCP: List ` +
        `Servers". Add this to your user mcp.json ("MCP: Open User Configuration") only if it is missing there (an ` +
        `editor without that API); otherwise the agent sees Redline twice.`,
      discoveryNote,
      pathNote(o),
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: false,
  }),

  other: (o) => {
    const env = { ...o.nodeCommand.env, ...(o.ipc ? ipcEnvironment(o.ipc) : {}) };
    const envLines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    return {
      title: 'Other assistants: register this as a stdio MCP server',
      language: 'plaintext',
      text:
        [
          shellCommand([o.nodeCommand.command, o.serverPath], o.shell),
          ...(envLines.length > 0 ? ['', ...envLines] : []),
        ].join('\n') + '\n',
      note: paragraphs(
        `Redline's server speaks MCP over stdio: give your assistant the command on the first line. On its own it ` +
          `finds the VS Code window whose folder holds the directory it runs in. ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV} ` +
          `pin it to this window instead, wherever it runs: set them only if the folder cannot tell (terminals of this ` +
          `window already have them).`,
        o.ipc
          ? `Those values belong to this window until it reloads or closes, or until "Redline: Rotate Token"; other ` +
              `windows have their own. The token is a secret (whoever has it can read your selection, open files and show reviews in this window).`
          : bridgeMissingNote,
        pathNote(o),
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: o.ipc !== undefined,
    };
  },
};

const discoveryNote =
  `No socket or token goes into the config: the server finds the VS Code window whose workspace folder holds the ` +
  `directory the assistant runs in, so it works from any terminal in the project, inside VS Code or not. To choose ` +
  `a window yourself, set ${WORKSPACE_ENV}=<folder> in the server's environment or pass it --workspace <folder>.`;

const bridgeMissingNote =
  `Redline's bridge is not running in this window, so ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV} are missing here; see ` +
  'the "Redline" output, then run this command again.';

/** Whether the path outlives this version. */
function pathNote(o: SetupOptions): string {
  return o.stablePath
    ? `The server's path stays the same when Redline updates: each Redline that starts points it at the newest ` +
        `installed version.`
    : 'The server path includes Redline\'s version: run "Redline: Connect an Assistant…" again after Redline updates.';
}

function runtimeNote(node: NodeCommand): string | undefined {
  if (!('ELECTRON_RUN_AS_NODE' in node.env)) return undefined;
  return (
    "`node` is not on PATH, so this runs the server with VS Code's own executable as Node.js " +
    '(ELECTRON_RUN_AS_NODE=1). That path can change when VS Code updates; with Node.js 18 or later on PATH, run this ' +
    'command again to get a plain `node` command.'
  );
}

function paragraphs(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined).join('\n\n');
}

function json(value: unknown): string {
  // JSON.stringify escapes backslashes and quotes, so Windows paths come out right.
  return JSON.stringify(value, null, 2) + '\n';
}

/** For a command shown for PowerShell: the same for cmd.exe, in the note. */
function cmdFormNote(argv: readonly string[], shell: ShellFlavor): string | undefined {
  return shell === 'powershell' ? `In cmd.exe instead of PowerShell: ${shellCommand(argv, 'cmd')}` : undefined;
}

// ---- TOML -----------------------------------------------------------------------------------

/**
 * A TOML string: basic ("…") when nothing needs escaping, literal ('…') when only backslashes
 * would (so a Windows path reads as it is), and basic with escapes otherwise.
 */
export function tomlString(value: string): string {
  // TOML forbids raw control characters (other than tab) and DEL in both kinds of string.
  const control = /[\u0000-\u0008\u000a-\u001f\u007f]/;
  if (!/["\\]/.test(value) && !control.test(value)) return `"${value}"`;
  if (!value.includes("'") && !control.test(value)) return `'${value}'`;
  const escaped = value.replace(/["\\\u0000-\u0008\u000a-\u001f\u007f]/g, (char) => {
    const named: Record<string, string> = {
      '"': '\\"',
      '\\': '\\\\',
      '\b': '\\b',
      '\n': '\\n',
      '\f': '\\f',
      '\r': '\\r',
    };
    return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

/** A server entry's value in TOML: a string, a list of strings, or a table of strings (inline). */
function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (Array.isArray(value)) return `[${value.map((item) => tomlString(String(item))).join(', ')}]`;
  const fields = Object.entries(value as Record<string, string>).map(
    ([name, item]) => `${tomlKey(name)} = ${tomlString(item)}`,
  );
  return `{ ${fields.join(', ')} }`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
