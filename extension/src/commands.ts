// The commands in the palette. The Record over `Commands` makes a missing handler a compile error.

import * as vscode from 'vscode';
import { IPC_PATH_ENV, IPC_TOKEN_ENV } from '../../shared/protocol';
import { buildSetup } from './assistants/assistantSetup';
import { agreesToCopyToken, connectAssistant } from './assistants/connectAssistant';
import { removeFromAssistant } from './assistants/removeAssistant';
import { resolveNodeCommand, serverScriptPath } from './assistants/serverLaunch';
import { serverPathForConfigs } from './assistants/stableServerPath';
import type { BridgeHost } from './bridge/bridgeHost';
import { pickEarlierReview } from './panel/earlierReviewPicker';
import type { ReviewPanel } from './panel/reviewPanel';
import { Commands, type CommandName } from './constants';
import { copyReviewToClipboard } from './reviewActions';
import type { AssistantReviews } from './review/assistantReviews';
import { publishReviewToPullRequest, type PublishDeps } from './publish/publishCommand';
import { exportReviewToFile, type ExportTarget } from './exchange/exportCommand';
import { openSarifAsReview, type ImportReview } from './exchange/importCommand';
import { showSampleReview, type PresentReview } from './sample/showSampleReview';

const NO_BRIDGE = 'Redline: the bridge is not running in this window; see the "Redline" output for why.';

export interface CommandDeps {
  readonly context: vscode.ExtensionContext;
  /** Copy, Clear and the history act on the review the panel shows. */
  readonly reviews: AssistantReviews;
  readonly bridge: () => BridgeHost | undefined;
  readonly showPanel: () => ReviewPanel;
  /** Tells what holds the token (the editor's own MCP server definition) that it changed. */
  readonly onTokenRotated: () => void;
  /** Publish Review to Pull Request: the review shown, as it leaves the window, and where to post it from. */
  readonly publish: PublishDeps;
  /** Where a review's references are looked for (the renderer's roots): an export's paths start there. */
  readonly roots: (cwd: string | undefined) => readonly string[];
  /** The bridge's import-review, made by the window itself. */
  readonly importReview: ImportReview;
  /** The bridge's present-review, made by the window itself (the sample review). */
  readonly presentReview: PresentReview;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  // The exchange commands take their dialogs' answers as arguments too, for the tests.
  const handlers: Record<CommandName, (...args: never[]) => unknown> = {
    showReview: () => deps.showPanel(),
    copyReview: async () => {
      if (await copyReviewToClipboard(deps.reviews.active.store.current))
        void vscode.window.showInformationMessage('Redline: review copied as markdown.');
    },
    clearReview: () => deps.reviews.active.store.clear(),
    showConnectionInfo: () => showConnectionInfo(deps),
    connectAssistant: () =>
      connectAssistant({
        extensionUri: deps.context.extensionUri,
        globalStorageUri: deps.context.globalStorageUri,
        bridge: deps.bridge,
      }),
    removeFromAssistant: () => removeFromAssistant({ globalStorageUri: deps.context.globalStorageUri }),
    openEarlierReview: async () => {
      const revision = await pickEarlierReview(deps.reviews.active.history);
      if (revision !== undefined) await deps.showPanel().openEarlier(revision);
    },
    compareWithPrevious: () => deps.showPanel().compareWithPrevious(),
    rotateToken: () => rotateToken(deps),
    publishReview: () => publishReviewToPullRequest(deps.publish),
    exportReview: (target?: ExportTarget) => exportReviewToFile(deps.reviews.active, deps.roots, target),
    openSarifAsReview: (uri?: vscode.Uri) => openSarifAsReview(deps.importReview, uri),
    showSampleReview: async () => {
      const shown = await showSampleReview(deps.context.extensionUri, deps.presentReview);
      if (shown) deps.showPanel();
      return shown;
    },
  };
  return (Object.keys(handlers) as CommandName[]).map((name) =>
    vscode.commands.registerCommand(Commands[name], handlers[name]),
  );
}

async function showConnectionInfo({ context, bridge }: CommandDeps): Promise<void> {
  const host = bridge();
  if (!host) {
    void vscode.window.showErrorMessage(NO_BRIDGE);
    return;
  }
  const { serverPath, stable } = serverPathForConfigs(serverScriptPath(context.extensionUri.fsPath));
  const claudeCommand = buildSetup('claude-code', {
    serverPath,
    stablePath: stable,
    nodeCommand: resolveNodeCommand(),
  }).text.trim();
  const environment = `export ${IPC_PATH_ENV}=${JSON.stringify(host.socketPath)} ${IPC_TOKEN_ENV}=${host.token}`;
  const detail = [
    `Socket: ${host.socketPath}`,
    `Discovery file: ${host.discoveryFile}`,
    `Connected assistants: ${host.authenticatedCount}`,
    '',
    'An assistant started in a folder of this workspace finds this window by itself, from any terminal: its config needs no socket or token.',
    `Claude Code: ${claudeCommand}`,
    `To pin an assistant started elsewhere to this window, set ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV}: "Copy Environment" copies ` +
      'them. Keep the token private: whoever has it can read your selection, open files and show reviews in this window ' +
      '("Redline: Rotate Token" replaces it). "Redline: Connect an Assistant…" sets up other assistants.',
  ].join('\n');
  const copyCommand = 'Copy Claude Code Command';
  const copyEnvironment = 'Copy Environment';
  const choice = await vscode.window.showInformationMessage(
    'Redline connection',
    { modal: true, detail },
    copyCommand,
    copyEnvironment,
  );
  if (choice === copyCommand) await vscode.env.clipboard.writeText(claudeCommand);
  // The same consent as Connect an Assistant's snippets that hold the token.
  if (choice === copyEnvironment && (await agreesToCopyToken('The environment', 'Copy')))
    await vscode.env.clipboard.writeText(environment);
}

/** A new token for this window's bridge: whoever copied the old one is locked out, and assistants reconnect by themselves. */
function rotateToken({ bridge, onTokenRotated }: CommandDeps): void {
  const host = bridge();
  if (!host) {
    void vscode.window.showErrorMessage(NO_BRIDGE);
    return;
  }
  host.rotateToken();
  onTokenRotated();
  void vscode.window.showInformationMessage(
    'Redline: the bridge has a new token. Connected assistants reconnect on their next call; snippets that hold the old token no longer work.',
  );
}
