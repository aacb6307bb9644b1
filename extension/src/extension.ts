// Wires Redline together: the review store, the renderer, the panel, the editor side of the
// bridge, the IPC server, the settings and the commands. No behaviour of its own lives here.

import * as path from 'path';
import * as vscode from 'vscode';
import { RedlineMcpServerProvider, registerMcpServerProvider } from './assistants/mcpDefinitionProvider';
import { resolveNodeCommand, serverScriptPath } from './assistants/serverLaunch';
import { BridgeHost } from './bridge/bridgeHost';
import { createRequestHandlers } from './bridge/requestHandlers';
import { registerCommands } from './commands';
import { LocationOpener } from './editor/locationOpener';
import { startFindings, type FindingsFeature } from './findings/findingsFeature';
import { historyPanelDeps, ReviewHistory } from './history/reviewHistory';
import { SelectionTracker } from './editor/selection';
import { ReviewPanel, type ReviewPanelDeps } from './panel/reviewPanel';
import { ReviewRenderer } from './render/reviewRenderer';
import { ReviewStore, type ReviewChange } from './review/reviewStore';
import { copyReviewToClipboard, openExternalLink, openReferenceForUser } from './reviewActions';
import { onDidChangeSettings, readSettings } from './settings';

/** What the extension-host tests read; not a public API. */
export interface RedlineTestApi {
  readonly store: ReviewStore;
  readonly bridge: () => BridgeHost | undefined;
  readonly panel: () => ReviewPanel | undefined;
  /** Where the store keeps its files. */
  readonly storageDirectory: string;
  /** The findings, their threads and the conversation. */
  readonly findings: FindingsFeature;
}

/** Kept for `deactivate`, which must hand VS Code the store's last write to wait for. */
let activeStore: ReviewStore | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<RedlineTestApi> {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Redline', { log: true });
  const settings = readSettings();
  const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;
  const storageDirectory = path.join(storageRoot, 'reviews');
  const store = await ReviewStore.open({
    directory: storageDirectory,
    historySize: settings.historySize,
    log: (message) => log.warn(message),
    legacy: context.workspaceState,
  });
  activeStore = store;
  const workspaceFolders = () =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const renderer = new ReviewRenderer(workspaceFolders);
  const selection = new SelectionTracker();
  const opener = new LocationOpener(
    (cwd) => renderer.roots(cwd),
    () => ReviewPanel.current?.viewColumn,
    selection.withheld,
  );
  const reviewChanged = new vscode.EventEmitter<ReviewChange>();
  let bridge: BridgeHost | undefined;
  const findings = await startFindings({
    store,
    renderer,
    directory: path.join(storageRoot, 'conversation'),
    log,
    showInPanel: (id) => showPanel().showFinding(id),
    announce: (cursor) => bridge?.broadcast('feedback-added', { cursor }),
  });

  const history = new ReviewHistory(store, renderer, (id) => findings.conversation.stateOf(id));

  const panelDeps: ReviewPanelDeps = {
    getReview: () => store.current,
    onDidChangeReview: reviewChanged.event,
    render: (review) => renderer.render(review),
    renderPart: async (review, part) => (await renderer.renderFragment(part.markdown, review.cwd, { lineOffset: part.startLine })).html,
    openReference: (target, cwd) => openReferenceForUser(opener, target, cwd),
    openExternal: openExternalLink,
    copyMarkdown: async (review) => void (await copyReviewToClipboard(review)),
    ...findings.panel,
    ...historyPanelDeps(history, (message) => void vscode.window.showWarningMessage(message)),
  };
  const showPanel = (preserveFocus = false) => ReviewPanel.createOrShow(context.extensionUri, panelDeps, { preserveFocus });

  const mcpServer = new RedlineMcpServerProvider(serverScriptPath(context.extensionUri.fsPath), resolveNodeCommand());
  mcpServer.setRequestTimeout(settings.requestTimeoutMs);

  context.subscriptions.push(
    log,
    findings,
    opener,
    selection,
    reviewChanged,
    vscode.window.registerWebviewPanelSerializer(ReviewPanel.viewType, {
      deserializeWebviewPanel: async (panel) => void ReviewPanel.revive(panel, context.extensionUri, panelDeps),
    }),
    ...registerCommands({ context, store, history, bridge: () => bridge, showPanel }),
    store.onDidChange((change) => {
      reviewChanged.fire(change);
      // A new review brings a closed or hidden panel to the front once, without taking focus from
      // the assistant's terminal; appends to it do not, so a user who closed the panel keeps it closed.
      if (change.kind === 'replace' && !ReviewPanel.current?.visible) showPanel(true);
      bridge?.broadcast('review-changed', { revision: store.revision });
    }),
    onDidChangeSettings((changed) => {
      bridge?.setRequestTimeout(changed.requestTimeoutMs);
      mcpServer.setRequestTimeout(changed.requestTimeoutMs);
      store.setHistorySize(changed.historySize).catch((error) => log.error('Could not trim the review history', error));
    }),
    { dispose: () => ReviewPanel.current?.dispose() },
    mcpServer,
    registerMcpServerProvider(mcpServer, log),
  );

  const handlers = createRequestHandlers(
    store,
    renderer,
    { getSelection: () => selection.current(), openLocation: (reference, cwd) => opener.open(reference, cwd) },
    { findings: findings.findings, conversation: findings.conversation, history },
  );
  try {
    bridge = await BridgeHost.start(context, handlers, log, settings.requestTimeoutMs);
    context.subscriptions.push(bridge);
    mcpServer.setEndpoint({ path: bridge.socketPath, token: bridge.token });
    log.info(`Listening on ${bridge.socketPath}; activated in ${(performance.now() - activationStarted).toFixed(1)} ms`);
  } catch (error) {
    log.error('Could not start the bridge', error);
    void vscode.window.showErrorMessage(`Redline could not start its bridge: ${(error as Error)?.message ?? error}`);
  }

  return { store, bridge: () => bridge, panel: () => ReviewPanel.current, storageDirectory, findings };
}

/** VS Code waits for the returned promise: the store's last write reaches the disk before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const store = activeStore;
  activeStore = undefined;
  return store?.dispose();
}
