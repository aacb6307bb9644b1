// Wires Redline together: the review store, the renderer, the panel, the editor side of the
// bridge, the IPC server and the commands. No behaviour of its own lives here.

import * as vscode from 'vscode';
import { RedlineMcpServerProvider, registerMcpServerProvider } from './assistants/mcpDefinitionProvider';
import { resolveNodeCommand, serverScriptPath } from './assistants/serverLaunch';
import { BridgeHost } from './bridge/bridgeHost';
import { createRequestHandlers } from './bridge/requestHandlers';
import { registerCommands } from './commands';
import { DEFAULT_HISTORY_SIZE, Settings } from './constants';
import { LocationOpener } from './editor/locationOpener';
import { SelectionTracker } from './editor/selection';
import { ReviewPanel, type ReviewPanelDeps } from './panel/reviewPanel';
import { ReviewRenderer } from './render/reviewRenderer';
import { ReviewStore } from './review/reviewStore';
import { copyReviewToClipboard, openExternalLink, openReferenceForUser } from './reviewActions';

/** What the extension-host tests read; not a public API. */
export interface RedlineTestApi {
  readonly store: ReviewStore;
  readonly bridge: () => BridgeHost | undefined;
  readonly panel: () => ReviewPanel | undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<RedlineTestApi> {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Redline', { log: true });
  const settings = vscode.workspace.getConfiguration(Settings.section);
  const store = new ReviewStore(context.workspaceState, {
    historySize: settings.get<number>(Settings.historySize, DEFAULT_HISTORY_SIZE),
  });
  const renderer = new ReviewRenderer(() =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  );
  const opener = new LocationOpener(
    (cwd) => renderer.roots(cwd),
    () => ReviewPanel.current?.viewColumn,
  );
  const selection = new SelectionTracker();
  const reviewChanged = new vscode.EventEmitter<void>();

  const panelDeps: ReviewPanelDeps = {
    getReview: () => store.current,
    onDidChangeReview: reviewChanged.event,
    render: (review) => renderer.render(review).html,
    openReference: (target, cwd) => openReferenceForUser(opener, target, cwd),
    openExternal: openExternalLink,
    copyMarkdown: async () => void (await copyReviewToClipboard(store)),
  };
  const showPanel = (preserveFocus = false) => ReviewPanel.createOrShow(context.extensionUri, panelDeps, { preserveFocus });

  const mcpServer = new RedlineMcpServerProvider(serverScriptPath(context.extensionUri.fsPath), resolveNodeCommand());

  let bridge: BridgeHost | undefined;
  context.subscriptions.push(
    log,
    store,
    opener,
    selection,
    reviewChanged,
    vscode.window.registerWebviewPanelSerializer(ReviewPanel.viewType, {
      deserializeWebviewPanel: async (panel) => void ReviewPanel.revive(panel, context.extensionUri, panelDeps),
    }),
    ...registerCommands({ context, store, bridge: () => bridge, showPanel }),
    store.onDidChange((review) => {
      reviewChanged.fire();
      // A review that arrives while the panel is closed or behind another tab is brought to the
      // front, without taking focus from the terminal the assistant runs in.
      if (review && !ReviewPanel.current?.visible) showPanel(true);
      bridge?.broadcast('review-changed', { revision: store.revision });
    }),
    { dispose: () => ReviewPanel.current?.dispose() },
    mcpServer,
    registerMcpServerProvider(mcpServer, log),
  );

  const handlers = createRequestHandlers(store, renderer, {
    getSelection: () => selection.current(),
    openLocation: (reference, cwd) => opener.open(reference, cwd),
  });
  try {
    bridge = await BridgeHost.start(context, handlers, log, settings.get<number>(Settings.requestTimeoutMs, 0));
    context.subscriptions.push(bridge);
    mcpServer.setEndpoint({ path: bridge.socketPath, token: bridge.token });
    log.info(`Listening on ${bridge.socketPath}; activated in ${(performance.now() - activationStarted).toFixed(1)} ms`);
  } catch (error) {
    log.error('Could not start the bridge', error);
    void vscode.window.showErrorMessage(`Redline could not start its bridge: ${(error as Error)?.message ?? error}`);
  }

  return { store, bridge: () => bridge, panel: () => ReviewPanel.current };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
