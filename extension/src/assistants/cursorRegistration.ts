// Cursor gives extensions its own way to hand an MCP server to its agent (`vscode.cursor.mcp`,
// https://cursor.com/docs/extension-api), where VS Code has `vscode.lm`. Through it Cursor's agent
// gets Redline with no config file at all, pinned to this window. No `vscode` import: the caller
// passes the API it found, so this is tested without an editor.

import { DisposableStore, toDisposable, type IDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { SERVER_NAME, type StdioServerDefinition } from './serverLaunch';

/** The part of `vscode.cursor.mcp` Redline uses. */
export interface CursorMcpApi {
  registerServer(config: {
    name: string;
    server: { command: string; args: string[]; env: Record<string, string> };
  }): void;
  unregisterServer(name: string): void;
}

export interface CursorRegistrationDeps {
  /** What to register now; undefined while the bridge is not listening. */
  readonly definition: () => StdioServerDefinition | undefined;
  /** Fires when the definition changes (the bridge started, a new token, a new timeout). */
  readonly onDidChange: (listener: () => void) => IDisposable;
  readonly log: Logger;
}

/** `vscode.cursor.mcp` when this editor is Cursor with that API; undefined elsewhere. */
export function findCursorMcpApi(vscodeModule: object): CursorMcpApi | undefined {
  const mcp = (vscodeModule as { cursor?: { mcp?: Partial<CursorMcpApi> } }).cursor?.mcp;
  return typeof mcp?.registerServer === 'function' && typeof mcp.unregisterServer === 'function'
    ? (mcp as CursorMcpApi)
    : undefined;
}

/** Keeps Redline registered with Cursor's agent as the definition changes, and unregisters it on dispose. */
export function registerWithCursor(api: CursorMcpApi, deps: CursorRegistrationDeps): IDisposable {
  const registration = new DisposableStore();
  let registered = false;
  registration.add(
    toDisposable(() => {
      if (!registered) return;
      try {
        api.unregisterServer(SERVER_NAME);
      } catch (error) {
        deps.log.warn('Could not unregister the Redline MCP server from Cursor', { error });
      }
    }),
  );
  const update = () => {
    const definition = deps.definition();
    try {
      if (definition) {
        // Registering under the same name replaces the earlier definition.
        api.registerServer({
          name: SERVER_NAME,
          server: { command: definition.command, args: [...definition.args], env: { ...definition.env } },
        });
        registered = true;
      } else if (registered) {
        api.unregisterServer(SERVER_NAME);
        registered = false;
      }
    } catch (error) {
      deps.log.warn('Could not register the Redline MCP server with Cursor', { error });
    }
  };
  update();
  // Released first: no change re-registers the server after it is unregistered.
  registration.add(deps.onDidChange(update));
  return registration;
}
