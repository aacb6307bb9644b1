// Wires Redline together: each assistant's review, the renderer, the panel, the findings, the
// editor side of the bridge, the IPC server, the settings and the commands. No behaviour of its own
// lives here.

import * as path from 'path';
import * as vscode from 'vscode';
import { registerActivity } from './activity/activityFeature';
import { RedlineMcpServerProvider, registerMcpServerProvider } from './assistants/mcpDefinitionProvider';
import { resolveNodeCommand, serverScriptPath } from './assistants/serverLaunch';
import { publishStableServerPath } from './assistants/stableServerPath';
import { BridgeHost } from './bridge/bridgeHost';
import { createRequestHandlers } from './bridge/requestHandlers';
import { broadcastReviewEvents } from './bridge/reviewEvents';
import { broadcastSelectionEvents } from './bridge/selectionEvents';
import { windowRequest } from './bridge/windowRequests';
import { registerCommands } from './commands';
import { buildExportedReview } from './exchange/exportedReviewBuilder';
import { CompletionSources } from './editor/completionSources';
import { getDiagnostics, getWorkspaceFolders, listOpenEditors } from './editor/editorContext';
import { LocationOpener } from './editor/locationOpener';
import { unsavedDocuments } from './editor/unsavedDocuments';
import { FindingsFeature } from './findings/findingsFeature';
import { SelectionTracker } from './editor/selection';
import { createPanelDeps } from './panel/panelDeps';
import { ReviewPanel } from './panel/reviewPanel';
import { ReviewRenderer } from './render/reviewRenderer';
import { RendererWarmUp } from './bridge/rendererWarmUp';
import { RenderWorkerPool } from './render/renderWorkerPool';
import { AssistantReviews } from './review/assistantReviews';
import { describeDrop } from './review/historyBudget';
import type { ReviewStore } from './review/reviewStore';
import { onDidChangeSettings, readSettings } from './settings';
import { Logger } from '../../shared/logger';
import { outputChannelSink } from './outputChannelLog';

/** What the extension-host tests read; not a public API. */
export interface RedlineTestApi {
  /** The store of the review the panel shows. */
  readonly store: ReviewStore;
  /** Every assistant's review in this window. */
  readonly reviews: AssistantReviews;
  readonly bridge: () => BridgeHost | undefined;
  readonly panel: () => ReviewPanel | undefined;
  /** Where the first assistant's store keeps its files. */
  readonly storageDirectory: string;
  /** The findings' threads, Problems entries and suggestions. */
  readonly findings: FindingsFeature;
}

/** Kept for `deactivate`, which must hand VS Code the stores' last writes to wait for. */
let activeReviews: AssistantReviews | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<RedlineTestApi> {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Redline', { log: true });
  const logger = new Logger(outputChannelSink(log), 'redline');
  void publishStableServerPath(context.extensionUri.fsPath, log);
  const settings = readSettings();
  const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;
  const workspaceFolders = () =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  // Renders run in worker threads (dist/renderWorker.js, beside this file): never on the host's thread.
  const renderPool = new RenderWorkerPool(path.join(context.extensionUri.fsPath, 'dist', 'renderWorker.js'));
  const renderer = new ReviewRenderer(workspaceFolders, renderPool, unsavedDocuments);
  renderer.onDistrust = (why) =>
    log.warn(
      `${why}. A repository counts only when you own it and no one else may write to it, as git's safe.directory decides.`,
    );
  context.subscriptions.push({ dispose: () => renderer.dispose() });
  const selection = new SelectionTracker();
  const opener = new LocationOpener(
    (cwd) => renderer.roots(cwd),
    () => ReviewPanel.current?.viewColumn,
    selection.withheld,
  );
  let bridge: BridgeHost | undefined;
  const findings = new FindingsFeature({
    renderer,
    log,
    showInPanel: (id) => showPanel().showFinding(id),
    markInPanel: (id) => ReviewPanel.current?.showFinding(id, { preserveFocus: true }),
  });
  const reviews = await AssistantReviews.open({
    root: storageRoot,
    historySize: settings.historySize,
    log: logger.for('reviews'),
    renderer,
    attachFindings: (review) => findings.attach(review),
  });
  activeReviews = reviews;
  findings.follow(reviews);

  const panelDeps = createPanelDeps(reviews, renderer, opener, findings.panel);
  const showPanel = (preserveFocus = false) =>
    ReviewPanel.createOrShow(context.extensionUri, panelDeps, { preserveFocus });

  const completions = new CompletionSources();
  const handlers = createRequestHandlers(reviews, renderer, {
    getSelection: () => selection.current(),
    openLocation: (reference, cwd) => opener.open(reference, cwd),
    getDiagnostics,
    listOpenEditors,
    getWorkspaceFolders,
    listGitRefs: (prefix) => completions.gitRefs(prefix),
    findWorkspaceFiles: (prefix) => completions.workspaceFiles(prefix),
  });

  const mcpServer = new RedlineMcpServerProvider(serverScriptPath(context.extensionUri.fsPath), resolveNodeCommand());
  mcpServer.setRequestTimeout(settings.requestTimeoutMs);

  context.subscriptions.push(
    log,
    findings,
    opener,
    selection,
    panelDeps,
    vscode.window.registerWebviewPanelSerializer(ReviewPanel.viewType, {
      deserializeWebviewPanel: async (panel) => void ReviewPanel.revive(panel, context.extensionUri, panelDeps),
    }),
    ...registerCommands({
      context,
      reviews,
      bridge: () => bridge,
      showPanel,
      onTokenRotated: () => bridge && mcpServer.setEndpoint({ path: bridge.socketPath, token: bridge.token }),
      publish: {
        exportReview: () => buildExportedReview(reviews.active, (cwd) => renderer.roots(cwd)),
        workspaceFolder: () => workspaceFolders()[0],
        log,
      },
      roots: (cwd) => renderer.roots(cwd),
      importReview: windowRequest(handlers, 'import-review'),
    }),
    reviews.onDidChangeReview(({ change }) => {
      // A new review brings a closed or hidden panel to the front once, without taking focus from
      // the assistant's terminal; appends to it do not, so a user who closed the panel keeps it closed.
      if (change.kind === 'replace' && !ReviewPanel.current?.visible) showPanel(true);
    }),
    broadcastReviewEvents(reviews, (event, payload) => bridge?.broadcast(event, payload)),
    broadcastSelectionEvents((event, payload) => bridge?.broadcast(event, payload)),
    onDidChangeSettings((changed) => {
      bridge?.setRequestTimeout(changed.requestTimeoutMs);
      mcpServer.setRequestTimeout(changed.requestTimeoutMs);
      reviews.setHistorySize(changed.historySize).then(
        () => bridge?.broadcast('history-changed', {}),
        (error) => log.error('Could not trim the review history', error),
      );
    }),
    { dispose: () => ReviewPanel.current?.dispose() },
    mcpServer,
    registerMcpServerProvider(mcpServer, log),
  );

  const activity = registerActivity(log);
  context.subscriptions.push(
    activity,
    reviews.onDidDropHistory((drop) => {
      activity.showNotice(describeDrop(drop));
      bridge?.broadcast('history-changed', {});
    }),
  );
  try {
    bridge = await BridgeHost.start(
      context,
      handlers,
      log,
      workspaceFolders,
      settings.requestTimeoutMs,
      activity.observer,
    );
    activity.bridgeStarted(bridge);
    context.subscriptions.push(bridge);
    // An assistant that connects may present soon: its worker is started and warmed by then.
    const warmUp = new RendererWarmUp(renderer);
    context.subscriptions.push(bridge.onDidChangeAuthenticatedCount((count) => count > 0 && warmUp.warm()));
    mcpServer.setEndpoint({ path: bridge.socketPath, token: bridge.token });
    log.info(
      `Listening on ${bridge.socketPath}; activated in ${(performance.now() - activationStarted).toFixed(1)} ms`,
    );
  } catch (error) {
    log.error('Could not start the bridge', error);
    activity.bridgeFailed(error);
    void vscode.window.showErrorMessage(`Redline could not start its bridge: ${(error as Error)?.message ?? error}`);
  }

  return {
    get store() {
      return reviews.active.store;
    },
    reviews,
    bridge: () => bridge,
    panel: () => ReviewPanel.current,
    storageDirectory: path.join(storageRoot, 'reviews'),
    findings,
  };
}

/** VS Code waits for the returned promise: the store's last write reaches the disk before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const reviews = activeReviews;
  activeReviews = undefined;
  return reviews?.dispose();
}
