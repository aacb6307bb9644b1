// The command or config entry that connects each assistant to Redline, with this installation's
// server path, and the note on what makes it work. Plain TypeScript with no `vscode` import: the
// quick pick that shows it is connectAssistant.ts.

import { IPC_PATH_ENV, IPC_TOKEN_ENV } from '../../../shared/protocol';
import { SERVER_NAME, ipcEnvironment, type IpcEndpoint, type NodeCommand } from './serverLaunch';

export type AssistantId = 'claude-code' | 'cursor' | 'codex' | 'gemini' | 'vscode' | 'other';

export interface AssistantChoice {
  readonly id: AssistantId;
  readonly label: string;
  readonly detail: string;
}

export const ASSISTANTS: readonly AssistantChoice[] = [
  { id: 'claude-code', label: 'Claude Code', detail: 'A "claude mcp add" command to run once' },
  { id: 'cursor', label: 'Cursor', detail: 'An entry for .cursor/mcp.json' },
  { id: 'codex', label: 'Codex CLI', detail: 'A table for ~/.codex/config.toml' },
  { id: 'gemini', label: 'Gemini CLI', detail: 'An entry for ~/.gemini/settings.json' },
  { id: 'vscode', label: 'VS Code (mcp.json)', detail: 'Usually nothing to do: Redline registers itself with agent mode' },
  { id: 'other', label: 'Other', detail: 'The command line and the two environment variables it needs' },
];

export type SnippetLanguage = 'shellscript' | 'json' | 'toml' | 'plaintext';

/** `posix`: sh, bash, zsh. `powershell`: Windows PowerShell and PowerShell 7. `cmd`: cmd.exe. */
export type ShellFlavor = 'posix' | 'powershell' | 'cmd';

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
  readonly nodeCommand: NodeCommand;
  /** This window's connection; undefined when the bridge is not running. */
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

const builders: Record<AssistantId, Builder> = {
  'claude-code': (o) => {
    const envFlags = Object.entries(o.nodeCommand.env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    // `-e` takes several values and would swallow the server name, and Windows PowerShell 5.1
    // drops a bare `--`: so `-e` goes before `--scope`, which ends it, and no `--` is needed
    // because nothing in the server's argv starts with a dash.
    const argv = ['claude', 'mcp', 'add', ...envFlags, '--scope', 'user', SERVER_NAME, o.nodeCommand.command, o.serverPath];
    return {
      title: 'Claude Code: run this once in a terminal',
      language: 'shellscript',
      text: shellCommand(argv, o.shell),
      note: paragraphs(
        `Adds Redline to Claude Code for all your projects. Then start \`claude\` in a terminal of this VS Code window: ` +
          `the terminal has this window's ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV}, Claude Code passes them on to the server, ` +
          `and so no secret is written to Claude's config.`,
        `If Redline was added before, remove it first: claude mcp remove ${SERVER_NAME} --scope user`,
        cmdFormNote(argv, o.shell),
        versionNote,
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: false,
    };
  },

  codex: (o) => {
    const lines = [
      `[mcp_servers.${SERVER_NAME}]`,
      `command = ${tomlString(o.nodeCommand.command)}`,
      `args = [${tomlString(o.serverPath)}]`,
    ];
    const env = Object.entries(o.nodeCommand.env);
    if (env.length > 0) lines.push(`env = { ${env.map(([name, value]) => `${tomlKey(name)} = ${tomlString(value)}`).join(', ')} }`);
    lines.push(
      '# Codex gives MCP servers only a few variables (PATH, HOME, ...); these two come from its terminal.',
      `env_vars = [${tomlString(IPC_PATH_ENV)}, ${tomlString(IPC_TOKEN_ENV)}]`,
    );
    return {
      title: 'Codex CLI: add this to ~/.codex/config.toml',
      language: 'toml',
      text: lines.join('\n') + '\n',
      note: paragraphs(
        `Add it to ~/.codex/config.toml (%USERPROFILE%\\.codex\\config.toml on Windows), then start \`codex\` in a ` +
          `terminal of this VS Code window.`,
        `Codex starts MCP servers with a cleared environment; \`env_vars\` passes this window's ${IPC_PATH_ENV} and ` +
          `${IPC_TOKEN_ENV} through from the terminal, so no secret is written to the file. It needs a Codex CLI recent ` +
          `enough to know \`env_vars\`.`,
        versionNote,
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: false,
    };
  },

  gemini: (o) => ({
    title: 'Gemini CLI: merge this into ~/.gemini/settings.json',
    language: 'json',
    text: json({
      mcpServers: {
        [SERVER_NAME]: {
          command: o.nodeCommand.command,
          args: [o.serverPath],
          env: { ...o.nodeCommand.env, [IPC_PATH_ENV]: `\${${IPC_PATH_ENV}}`, [IPC_TOKEN_ENV]: `\${${IPC_TOKEN_ENV}}` },
        },
      },
    }),
    note: paragraphs(
      `Merge the "${SERVER_NAME}" entry into "mcpServers" in ~/.gemini/settings.json (or .gemini/settings.json in a ` +
        `project), then start \`gemini\` in a terminal of this VS Code window.`,
      `Gemini CLI fills in \${${IPC_PATH_ENV}} and \${${IPC_TOKEN_ENV}} from that terminal when it starts the server. ` +
        `They are spelled out because recent versions drop variables whose names look secret (such as …_TOKEN) from ` +
        `what MCP servers inherit. No secret is written to the file.`,
      versionNote,
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: false,
  }),

  cursor: (o) => ({
    title: 'Cursor: save this as .cursor/mcp.json in this project',
    language: 'json',
    text: json({ mcpServers: { [SERVER_NAME]: serverEntry(o) } }),
    note: paragraphs(
      `Cursor's agent starts MCP servers itself, not from a terminal, so they never see the variables Redline puts ` +
        `in this window's terminals; this entry carries the values instead. Save it as .cursor/mcp.json in this ` +
        `project (or merge the "${SERVER_NAME}" entry into "mcpServers" there) and check that Redline is enabled in ` +
        `Cursor's MCP settings.`,
      bakedValuesNote('.cursor/mcp.json', o.ipc),
      versionNote,
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: o.ipc !== undefined,
  }),

  vscode: (o) => ({
    title: 'VS Code: usually nothing to add (an optional .vscode/mcp.json is below)',
    language: 'json',
    text: json({ servers: { [SERVER_NAME]: { type: 'stdio', ...serverEntry(o) } } }),
    note: paragraphs(
      `Redline registers its server with VS Code's agent mode for this window, with this window's connection: look ` +
        `for Redline in "MCP: List Servers". Add this to .vscode/mcp.json only if it is missing there (an editor ` +
        `without that API); otherwise the agent sees Redline twice.`,
      bakedValuesNote('.vscode/mcp.json', o.ipc),
      versionNote,
      runtimeNote(o.nodeCommand),
    ),
    containsSecret: o.ipc !== undefined,
  }),

  other: (o) => {
    const env = { ...o.nodeCommand.env, ...(o.ipc ? ipcEnvironment(o.ipc) : {}) };
    const envLines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    return {
      title: 'Other assistants: register this as a stdio MCP server',
      language: 'plaintext',
      text: [shellCommand([o.nodeCommand.command, o.serverPath], o.shell), ...(envLines.length > 0 ? ['', ...envLines] : [])].join('\n') + '\n',
      note: paragraphs(
        `Redline's server speaks MCP over stdio: give your assistant the command on the first line. It finds this ` +
          `window through ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV}. An assistant started in a terminal of this VS Code ` +
          `window already has both; one started any other way needs them set as listed.`,
        o.ipc
          ? `Those values belong to this workspace: Redline keeps them across reloads, but other folders and windows ` +
              `have their own. The token is a secret (whoever has it can read your selection, open files and show reviews in this window).`
          : bridgeMissingNote,
        versionNote,
        runtimeNote(o.nodeCommand),
      ),
      containsSecret: o.ipc !== undefined,
    };
  },
};

const versionNote =
  'The server path includes Redline\'s version: run "Redline: Connect an Assistant…" again after Redline updates.';

const bridgeMissingNote =
  `Redline's bridge is not running in this window, so ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV} are missing here; see ` +
  'the "Redline" output, then run this command again.';

/** For config files that the editor, not a terminal, hands to the server. */
function bakedValuesNote(file: string, ipc: IpcEndpoint | undefined): string {
  if (!ipc) return bridgeMissingNote;
  return (
    `The socket path and token are this workspace's: Redline keeps them across reloads, so the entry keeps working ` +
    `for this folder, but other folders and windows have their own. The token is a secret (it lets a program read ` +
    `this window's selection and show reviews in it): keep ${file} out of version control.`
  );
}

function runtimeNote(node: NodeCommand): string | undefined {
  if (!('ELECTRON_RUN_AS_NODE' in node.env)) return undefined;
  return (
    '`node` is not on PATH, so this runs the server with VS Code\'s own executable as Node.js ' +
    '(ELECTRON_RUN_AS_NODE=1). That path can change when VS Code updates; with Node.js 18 or later on PATH, run this ' +
    'command again to get a plain `node` command.'
  );
}

/** `command`, `args` and, when there is any, `env`: the stdio entry that JSON configs share. */
function serverEntry(o: SetupOptions): Record<string, unknown> {
  const env = { ...o.nodeCommand.env, ...(o.ipc ? ipcEnvironment(o.ipc) : {}) };
  return { command: o.nodeCommand.command, args: [o.serverPath], ...(Object.keys(env).length > 0 ? { env } : {}) };
}

function paragraphs(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined).join('\n\n');
}

function json(value: unknown): string {
  // JSON.stringify escapes backslashes and quotes, so Windows paths come out right.
  return JSON.stringify(value, null, 2) + '\n';
}

// ---- shell ----------------------------------------------------------------------------------

export function shellCommand(argv: readonly string[], shell: ShellFlavor): string {
  const words = argv.map((arg) => shellQuote(arg, shell));
  // PowerShell reads a quoted first word as a string, not a command: `&` runs it.
  return shell === 'powershell' && words.length > 0 && words[0] !== argv[0] ? `& ${words.join(' ')}` : words.join(' ');
}

/** PowerShell takes the typographic single quotes for quotes too. */
const POWERSHELL_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/**
 * POSIX: single quotes, where nothing is special. PowerShell: single quotes too, where `$(…)`,
 * `$var` and backticks are text; a quote inside is doubled. cmd: double quotes, which keep
 * `& | < > ^` as text; a `%` is put outside them as `^%`, so that no `%NAME%` can expand.
 */
export function shellQuote(arg: string, shell: ShellFlavor): string {
  switch (shell) {
    case 'posix':
      return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
    case 'powershell':
      return /^[A-Za-z0-9_+=:./\\-]+$/.test(arg) ? arg : `'${arg.replace(POWERSHELL_QUOTES, (quote) => quote + quote)}'`;
    case 'cmd':
      return /^[A-Za-z0-9_+=:,./\\-]+$/.test(arg) ? arg : cmdQuote(arg);
  }
}

/**
 * For cmd.exe, then the C runtime that splits the program's command line: backslashes before a
 * quote are doubled (the runtime halves them), and a `%` goes outside the quotes as `^%`, where
 * `%"NAME"^%` is no variable cmd could expand. Windows file names cannot hold `"`; a value that
 * does gets the runtime's `\"`, which cmd itself still reads as a quote.
 */
function cmdQuote(arg: string): string {
  let quoted = '"';
  let backslashes = 0;
  for (const char of arg) {
    if (char === '\\') {
      backslashes++;
      quoted += char;
      continue;
    }
    if (char === '"') quoted += `${'\\'.repeat(backslashes)}\\"`;
    else if (char === '%') quoted += `${'\\'.repeat(backslashes)}"^%"`;
    else quoted += char;
    backslashes = 0;
  }
  return `${quoted}${'\\'.repeat(backslashes)}"`;
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
    const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
    return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
