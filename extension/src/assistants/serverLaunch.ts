// How the bundled MCP server is started: which runtime runs dist/mcp-server.js, and the
// environment that points it at this window. Shared by the native registration and the setup
// snippets; it never imports `vscode`, so it is tested without an editor.

import * as fs from 'fs';
import * as path from 'path';
import { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from '../../../shared/protocol';

/** The server's name in every assistant's config. */
export const SERVER_NAME = 'redline';
export const SERVER_LABEL = 'Redline';

/** The program that runs the server script, and what it needs in its environment to do so. */
export interface NodeCommand {
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
}

/** This window's socket and token: what the server needs to reach the editor. */
export interface IpcEndpoint {
  readonly path: string;
  readonly token: string;
}

export interface StdioServerDefinition {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** What `resolveNodeCommand` looks at; tests pass their own. */
export interface RuntimeProbe {
  readonly pathEnv: string | undefined;
  readonly platform: NodeJS.Platform;
  /** The editor's own executable (the extension host's `process.execPath`). */
  readonly execPath: string;
  readonly isExecutableFile?: (file: string) => boolean;
}

export function serverScriptPath(extensionPath: string): string {
  return path.join(extensionPath, 'dist', 'mcp-server.js');
}

/**
 * `node` when it is on PATH; otherwise the editor's own executable, which every Electron build
 * can run as plain Node.js. PATH is scanned rather than a process spawned, since this runs
 * during activation.
 */
export function resolveNodeCommand(probe: RuntimeProbe = currentRuntime()): NodeCommand {
  if (findOnPath('node', probe)) return { command: 'node', env: {} };
  return { command: probe.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** The first `name` (`name.exe` on Windows) in PATH that is an executable file. */
export function findOnPath(name: string, probe: RuntimeProbe): string | undefined {
  const windows = probe.platform === 'win32';
  const files = windows ? path.win32 : path.posix;
  const isExecutable = probe.isExecutableFile ?? isExecutableFile;
  for (const entry of (probe.pathEnv ?? '').split(windows ? ';' : ':')) {
    // Windows allows quoted entries; an empty entry means "the current directory", which is
    // whatever the assistant's is, not ours, so it proves nothing.
    const dir = windows ? entry.replace(/^"(.*)"$/, '$1') : entry;
    if (!dir) continue;
    const candidate = files.join(dir, windows ? `${name}.exe` : name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The two variables that point the server at a window. */
export function ipcEnvironment(ipc: IpcEndpoint): Record<string, string> {
  return { [IPC_PATH_ENV]: ipc.path, [IPC_TOKEN_ENV]: ipc.token };
}

export interface ServerDefinitionOptions {
  readonly serverPath: string;
  readonly node: NodeCommand;
  readonly ipc: IpcEndpoint;
  /** The `redline.requestTimeoutMs` setting; 0 (the default) keeps the server's per-method defaults. */
  readonly requestTimeoutMs?: number;
}

/** What the editor starts for its own agent: the server, pointed at this window, with the request timeout when it is set. */
export function mcpServerDefinition({
  serverPath,
  node,
  ipc,
  requestTimeoutMs = 0,
}: ServerDefinitionOptions): StdioServerDefinition {
  const timeout: Record<string, string> = requestTimeoutMs > 0 ? { [TIMEOUT_ENV]: String(requestTimeoutMs) } : {};
  return {
    label: SERVER_LABEL,
    command: node.command,
    args: [serverPath],
    env: { ...node.env, ...ipcEnvironment(ipc), ...timeout },
  };
}

/** The extension host's own PATH, platform and executable. */
export function currentRuntime(): RuntimeProbe {
  return { pathEnv: process.env.PATH, platform: process.platform, execPath: process.execPath };
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    // Windows has no execute bit; node.exe being there is enough.
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
