// Wires Redline together: each assistant's review, the renderer, the panel, the findings, the
// editor side of the bridge, the IPC server, the settings and the commands. No behaviour of its own
// lives here. Everything it makes is owned by one store, which deactivate() releases and waits for.

import * as path from 'path';
import * as vscode from 'vscode';
import { DisposableStore, toDisposable, type IDisposable } from '../../shared/lifecycle';
import { errorMessage, Logger } from '../../shared/logger';
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
import { LocatedPrefixes } from './exchange/locatedPrefixes';
import { SarifImportRunner } from './exchange/sarifImportRunner';
import { CompletionSources } from './editor/completionSources';
import { getDiagnostics, getWorkspaceFolders, listOpenEditors } from './editor/editorContext';
import { EditorInFront } from './editor/editorInFront';
import { LocationOpener } from './editor/locationOpener';
import { unsavedDocuments } from './editor/unsavedDocuments';
import { FindingsFeature } from './findings/findingsFeature';
import { SelectionTracker } from './editor/selection';
import { createPanelDeps } from './panel/panelDeps';
import { ReviewPanel } from './panel/reviewPanel';
import { ReviewRenderer } from './render/reviewRenderer';
import { RendererWarmUp } from './bridge/rendererWarmUp';
import { sampleWorkspace } from './sample/showSampleReview';
import { RenderWorkerPool } from './render/renderWorkerPool';
import { AssistantReviews } from './review/assistantReviews';
import { describeDrop } from './review/historyBudget';
import type { ReviewStore } from './review/reviewStore';
import { outputChannelSink } from './outputChannelLog';
import { onDidChangeSettings, readSettings } from './settings';

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

/** What activate() made, newest released first; `deactivate` hands VS Code its release to wait for. */
let owned: DisposableStore | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<RedlineTestApi> {
  const activationStarted = performance.now();
  const log = vscode.window.createOutputChannel('Redline', { log: true });
  const logger = new Logger(outputChannelSink(log), 'redline');
  const root = new DisposableStore();
  owned = root;
  // Only for an activation that fails part way, after which deactivate() may not run; otherwise
  // deactivate() has released it already, and this second call returns the same promise.
  context.subscriptions.push(root);
  const own = (...items: IDisposable[]) => items.forEach((item) => root.add(item));
  // Added first, released last: whatever is released before it can still log.
  own(log);
  void publishStableServerPath(context.extensionUri.fsPath, logger.for('launcher'));
  const settings = readSettings();
  const storageRoot = (context.storageUri ?? context.globalStorageUri).fsPath;
  const workspaceFolders = () =>
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  // Renders run in worker threads (dist/renderWorker.js, beside this file): never on the host's thread.
  const renderPool = new RenderWorkerPool(path.join(context.extensionUri.fsPath, 'dist', 'renderWorker.js'));
  // SARIF logs are read and converted in a worker of their own (dist/sarifImportWorker.js).
  const sarifImports = root.add(
    new SarifImportRunner(path.join(context.extensionUri.fsPath, 'dist', 'sarifImportWorker.js')),
  );
  const renderer = root.add(
    new ReviewRenderer(workspaceFolders, {
      engine: renderPool,
      unsavedDocuments,
      log: logger.for('renderer'),
      bundledFolders: [sampleWorkspace(context.extensionUri.fsPath)],
    }),
  );
  const selection = new SelectionTracker();
  const inFront = root.add(new EditorInFront(logger.for('editor')));
  const opener = new LocationOpener(
    (cwd) => renderer.roots(cwd),
    () => ReviewPanel.current?.viewColumn,
    { withheld: selection.withheld, inFront },
  );
  let bridge: BridgeHost | undefined;
  const findings = new FindingsFeature({
    renderer,
    inFront,
    log: logger.for('findings'),
    showInPanel: (id) => showPanel().showFinding(id),
    markInPanel: (id) => ReviewPanel.current?.showFinding(id, { preserveFocus: true }),
  });
  const reviewsLog = logger.for('reviews');
  const reviews = await AssistantReviews.open({
    root: storageRoot,
    historySize: settings.historySize,
    log: reviewsLog,
    renderer,
    attachFindings: (review) => findings.attach(review),
  });
  root.add(reviews);
  // Said once, so that a user (or a test) can find this window's reviews on disk.
  reviewsLog.info('this window keeps its reviews in', { folder: path.join(storageRoot, 'reviews') });
  findings.follow(reviews);

  const panelDeps = createPanelDeps({ reviews, renderer, opener, inFront, findings: findings.panel });
  const panelSetup = { extensionUri: context.extensionUri, deps: panelDeps, log: logger.for('panel') };
  const showPanel = (preserveFocus = false) => ReviewPanel.createOrShow(panelSetup, { preserveFocus });

  const completions = new CompletionSources();
  const handlers = createRequestHandlers(reviews, renderer, {
    getSelection: () => selection.current(),
    openLocation: (reference, cwd) => opener.open(reference, cwd),
    getDiagnostics,
    listOpenEditors,
    getWorkspaceFolders,
    listGitRefs: (prefix) => completions.gitRefs(prefix),
    findWorkspaceFiles: (prefix) => completions.workspaceFiles(prefix),
    revealReview: (assistant, findingId) => {
      const owner = reviews.lookup(assistant);
      if (!owner?.store.current || !reviews.select(owner.key)) return false;
      const panel = showPanel();
      if (findingId !== undefined) panel.showFinding(findingId);
      return true;
    },
  });

  const mcpServer = new RedlineMcpServerProvider(serverScriptPath(context.extensionUri.fsPath), resolveNodeCommand());
  mcpServer.setRequestTimeout(settings.requestTimeoutMs);

  own(
    findings,
    opener,
    selection,
    panelDeps,
    vscode.window.registerWebviewPanelSerializer(ReviewPanel.viewType, {
      deserializeWebviewPanel: async (panel) => void ReviewPanel.revive(panel, panelSetup),
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
        log: logger.for('publish'),
      },
      roots: (cwd) => renderer.roots(cwd),
      sarifImport: {
        importReview: windowRequest(handlers, 'import-review'),
        runImport: (job) => sarifImports.run(job),
        located: new LocatedPrefixes(context.workspaceState),
      },
      presentReview: windowRequest(handlers, 'present-review'),
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
        (error) => logger.error('could not trim the review history', { error }),
      );
    }),
    toDisposable(() => ReviewPanel.current?.dispose()),
    mcpServer,
    registerMcpServerProvider(mcpServer, logger.for('mcp-provider')),
  );

  const activity = registerActivity(logger.for('activity'));
  own(
    activity,
    reviews.onDidDropHistory((drop) => {
      activity.showNotice(describeDrop(drop));
      bridge?.broadcast('history-changed', {});
    }),
  );
  const bridgeLog = logger.for('bridge');
  try {
    bridge = root.add(
      await BridgeHost.start({
        context,
        handlers,
        log: bridgeLog,
        folders: workspaceFolders,
        requestTimeoutMs: settings.requestTimeoutMs,
        observer: activity.observer,
      }),
    );
    activity.bridgeStarted(bridge);
    // An assistant that connects may present soon: its worker is started and warmed by then.
    const warmUp = new RendererWarmUp(renderer);
    own(bridge.onDidChangeAuthenticatedCount((count) => count > 0 && warmUp.warm()));
    mcpServer.setEndpoint({ path: bridge.socketPath, token: bridge.token });
    bridgeLog.info('listening', {
      socketPath: bridge.socketPath,
      activatedMs: Number((performance.now() - activationStarted).toFixed(1)),
    });
  } catch (error) {
    bridgeLog.error('could not start', { error });
    activity.bridgeFailed(error);
    void vscode.window.showErrorMessage(`Redline could not start its bridge: ${errorMessage(error)}`);
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

/** VS Code waits for the returned promise: the stores' last writes reach the disk before the host exits. */
export function deactivate(): Promise<void> | undefined {
  const root = owned;
  owned = undefined;
  return root?.dispose();
}
