// Registers Redline's MCP server with the editor (VS Code 1.101+), so agent mode can use it with
// no setup. The definition carries this window's socket and token, so it is offered only once
// the bridge is listening; editors without the API still get every other feature.

import * as vscode from 'vscode';
import { Disposable, type IDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { REDLINE_VERSION } from '../../../shared/version';
import { findCursorMcpApi, registerWithCursor } from './cursorRegistration';
import { mcpServerDefinition, type IpcEndpoint, type NodeCommand, type StdioServerDefinition } from './serverLaunch';

/** Must match `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const MCP_PROVIDER_ID = 'redline';

export class RedlineMcpServerProvider
  extends Disposable
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>
{
  private endpoint: IpcEndpoint | undefined;
  private requestTimeoutMs = 0;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(
    private readonly serverPath: string,
    private readonly node: NodeCommand,
  ) {
    super();
  }

  /** The bridge started (or stopped): the editor asks for the definitions again. */
  setEndpoint(endpoint: IpcEndpoint | undefined): void {
    if (endpoint?.path === this.endpoint?.path && endpoint?.token === this.endpoint?.token) return;
    this.endpoint = endpoint;
    this.changed.fire();
  }

  /** `redline.requestTimeoutMs` changed: the editor asks again, and starts the server with the new value. */
  setRequestTimeout(requestTimeoutMs: number): void {
    if (requestTimeoutMs === this.requestTimeoutMs) return;
    this.requestTimeoutMs = requestTimeoutMs;
    this.changed.fire();
  }

  /** The server pinned to this window, or undefined while the bridge is not listening (it could only report that it cannot connect). */
  definition(): StdioServerDefinition | undefined {
    if (!this.endpoint) return undefined;
    return mcpServerDefinition({
      serverPath: this.serverPath,
      node: this.node,
      ipc: this.endpoint,
      requestTimeoutMs: this.requestTimeoutMs,
    });
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const definition = this.definition();
    if (!definition) return [];
    const { label, command, args, env } = definition;
    // The editor restarts a running server only when the version changes, so a new timeout changes it too.
    const version = this.requestTimeoutMs > 0 ? `${REDLINE_VERSION}+timeout.${this.requestTimeoutMs}` : REDLINE_VERSION;
    const server = new vscode.McpStdioServerDefinition(label, command, [...args], { ...env }, version);
    // Relative references in a review resolve against the server's working directory first.
    server.cwd = vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri;
    return [server];
  }

  resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): vscode.McpStdioServerDefinition {
    if (!this.endpoint)
      throw new Error('Redline\'s bridge is not running in this window; see the "Redline" output for why.');
    return server;
  }
}

/** Registers `provider` where the editor has an API for it (VS Code's, or Cursor's); elsewhere logs why and does nothing. */
export function registerMcpServerProvider(provider: RedlineMcpServerProvider, log: Logger): IDisposable {
  const unavailable = new vscode.Disposable(() => undefined);
  const cursor = findCursorMcpApi(vscode);
  if (cursor) {
    log.info("Registering the Redline MCP server with Cursor's agent");
    return registerWithCursor(cursor, {
      definition: () => provider.definition(),
      onDidChange: (listener) => provider.onDidChangeMcpServerDefinitions(listener),
      log,
    });
  }
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') {
    log.info(
      'This editor cannot register MCP servers (VS Code 1.101+ can); use "Redline: Connect an Assistant…" to set one up.',
    );
    return unavailable;
  }
  try {
    const registration = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
    log.info('Registered the Redline MCP server with the editor');
    return registration;
  } catch (error) {
    log.warn('Could not register the Redline MCP server with the editor', { error });
    return unavailable;
  }
}
