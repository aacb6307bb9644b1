// The client's MCP roots, for choosing a window when the working directory is in no window's
// folder (Cursor starts servers in a directory of its own). A 2025-era client only: 2026-07-28
// deprecates roots (SEP-2577), so there --workspace and REDLINE_WORKSPACE choose the window.

import { fileURLToPath } from 'url';
import type { McpServer } from '@modelcontextprotocol/server';

/** Roots past this many are not used: the window is chosen from the first ones. */
const MAX_ROOTS = 64;

export class ClientRoots {
  private folders: readonly string[] = [];

  get(): readonly string[] {
    return this.folders;
  }

  /** Starts asking `server`'s client, if it declares roots. Call before the server connects. */
  watch(server: McpServer): void {
    const inner = server.server;
    const ask = () => {
      if (!inner.getClientCapabilities()?.roots) return;
      inner.listRoots().then(
        ({ roots }) => (this.folders = roots.slice(0, MAX_ROOTS).flatMap((root) => folderOf(root.uri))),
        () => undefined, // A client that declared roots and then cannot list them: the other rules decide.
      );
    };
    const initialized = inner.oninitialized;
    inner.oninitialized = () => {
      initialized?.();
      ask();
    };
    inner.setNotificationHandler('notifications/roots/list_changed', ask);
  }
}

/** A root is a `file:` URI; anything else names no folder here. */
function folderOf(uri: string): string[] {
  try {
    return uri.startsWith('file:') ? [fileURLToPath(uri)] : [];
  } catch {
    return [];
  }
}
