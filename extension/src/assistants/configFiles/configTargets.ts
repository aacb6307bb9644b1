// Where each assistant keeps its user-wide MCP servers, and the entry Redline puts there. Only
// user-level files: an entry names a path in the user's home, so it has no place in a project's
// files, and with discovery one entry serves every project.

import * as path from 'path';
import { SERVER_ENV_NAMES } from '../../../../shared/environment';
import { SERVER_NAME, type NodeCommand } from '../serverLaunch';
import type { EntryPath, ServerEntry } from './configEdit';
import type { JsonReader } from './jsonConfig';

/** The assistants whose config Redline can write itself. (Claude Code's is written by `claude mcp add`.) */
export type FileAssistant = 'cursor' | 'codex' | 'gemini' | 'vscode';

export interface ConfigTarget {
  readonly assistant: FileAssistant;
  /** The config file, absolute. */
  readonly file: string;
  readonly format: 'json' | 'toml';
  /** A JSON file's reader, where it is stricter than VS Code's parser. */
  readonly jsonReader?: JsonReader;
  readonly entryPath: EntryPath;
  /** The file as the user knows it: `~/.cursor/mcp.json`. */
  readonly displayPath: string;
}

export interface TargetEnvironment {
  readonly home: string;
  /** VS Code's `User` folder, where its user mcp.json lives; undefined when unknown (not a local file). */
  readonly vscodeUserDirectory?: string;
  readonly platform?: NodeJS.Platform;
}

export function isFileAssistant(assistant: string): assistant is FileAssistant {
  return assistant === 'cursor' || assistant === 'codex' || assistant === 'gemini' || assistant === 'vscode';
}

export function configTarget(assistant: FileAssistant, environment: TargetEnvironment): ConfigTarget | undefined {
  const paths = environment.platform === 'win32' ? path.win32 : environment.platform ? path.posix : path;
  const inHome = (...parts: string[]) => paths.join(environment.home, ...parts);
  const target = (file: string, format: 'json' | 'toml', servers: string): ConfigTarget => ({
    assistant,
    file,
    format,
    entryPath: [servers, SERVER_NAME],
    displayPath: displayPath(file, environment.home, paths),
  });
  switch (assistant) {
    case 'cursor':
      return target(inHome('.cursor', 'mcp.json'), 'json', 'mcpServers');
    case 'codex':
      return target(inHome('.codex', 'config.toml'), 'toml', 'mcp_servers');
    case 'gemini':
      return {
        ...target(inHome('.gemini', 'settings.json'), 'json', 'mcpServers'),
        jsonReader: { name: 'Gemini CLI', rejectsTrailingCommas: true },
      };
    case 'vscode':
      return environment.vscodeUserDirectory
        ? target(paths.join(environment.vscodeUserDirectory, 'mcp.json'), 'json', 'servers')
        : undefined;
  }
}

/**
 * `globalStorageUri` is `<user data>/User/globalStorage/<extension id>`: two levels up is the
 * `User` folder of the profile VS Code started with, where "MCP: Open User Configuration" opens
 * mcp.json. (A non-default profile keeps its own mcp.json under User/profiles/<id>.)
 */
export function vscodeUserDirectory(globalStoragePath: string): string {
  return path.dirname(path.dirname(globalStoragePath));
}

/**
 * The stdio entry every assistant's file takes. VS Code's also says that it is stdio. Codex CLI
 * starts servers with a fixed set of variables (HOME, PATH, TMPDIR…), so its entry names Redline's
 * own (the terminal's window pin, the request timeout, the chosen folder) to pass through.
 */
export function serverEntry(assistant: FileAssistant, serverPath: string, node: NodeCommand): ServerEntry {
  const env = Object.keys(node.env).length > 0 ? { env: { ...node.env } } : {};
  const entry = { command: node.command, args: [serverPath], ...env };
  if (assistant === 'vscode') return { type: 'stdio', ...entry };
  if (assistant === 'codex') return { ...entry, env_vars: [...SERVER_ENV_NAMES] };
  return entry;
}

function displayPath(file: string, home: string, paths: typeof path.posix): string {
  const relative = paths.relative(home, file);
  if (relative.startsWith('..') || paths.isAbsolute(relative)) return file;
  return `~${paths.sep}${relative}`;
}
