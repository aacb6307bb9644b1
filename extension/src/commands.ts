// The commands in the palette. The Record over `Commands` makes a missing handler a compile error.

import * as vscode from 'vscode';
import { IPC_PATH_ENV, IPC_TOKEN_ENV } from '../../shared/protocol';
import { buildSetup } from './assistants/assistantSetup';
import { connectAssistant } from './assistants/connectAssistant';
import { resolveNodeCommand, serverScriptPath } from './assistants/serverLaunch';
import type { BridgeHost } from './bridge/bridgeHost';
import { pickEarlierReview } from './history/earlierReviewPicker';
import type { ReviewPanel } from './panel/reviewPanel';
import { Commands, type CommandName } from './constants';
import { copyReviewToClipboard } from './reviewActions';
import type { AssistantReviews } from './review/assistantReviews';

export interface CommandDeps {
  readonly context: vscode.ExtensionContext;
  /** Copy, Clear and the history act on the review the panel shows. */
  readonly reviews: AssistantReviews;
  readonly bridge: () => BridgeHost | undefined;
  readonly showPanel: () => ReviewPanel;
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const handlers: Record<CommandName, () => unknown> = {
    showReview: () => deps.showPanel(),
    copyReview: async () => {
      if (await copyReviewToClipboard(deps.reviews.active.store.current)) void vscode.window.showInformationMessage('Redline: review copied as markdown.');
    },
    clearReview: () => deps.reviews.active.store.clear(),
    showConnectionInfo: () => showConnectionInfo(deps),
    connectAssistant: () => connectAssistant({ extensionUri: deps.context.extensionUri, bridge: deps.bridge }),
    openEarlierReview: async () => {
      const revision = await pickEarlierReview(deps.reviews.active.history);
      if (revision !== undefined) await deps.showPanel().openEarlier(revision);
    },
    compareWithPrevious: () => deps.showPanel().compareWithPrevious(),
  };
  return (Object.keys(handlers) as CommandName[]).map((name) => vscode.commands.registerCommand(Commands[name], handlers[name]));
}

async function showConnectionInfo({ context, bridge }: CommandDeps): Promise<void> {
  const host = bridge();
  if (!host) {
    void vscode.window.showErrorMessage('Redline: the bridge is not running in this window; see the "Redline" output for why.');
    return;
  }
  const claudeCommand = buildSetup('claude-code', {
    serverPath: serverScriptPath(context.extensionUri.fsPath),
    nodeCommand: resolveNodeCommand(),
  }).text.trim();
  const environment = `export ${IPC_PATH_ENV}=${JSON.stringify(host.socketPath)} ${IPC_TOKEN_ENV}=${host.token}`;
  const detail = [
    `Socket: ${host.socketPath}`,
    `Connected MCP servers: ${host.connectionCount}`,
    '',
    `Terminals opened in this window already have ${IPC_PATH_ENV} and ${IPC_TOKEN_ENV}; start your assistant in one of them.`,
    `Claude Code: ${claudeCommand}`,
    'Elsewhere, set the environment first (keep the token private). "Redline: Connect an Assistant…" has other assistants.',
  ].join('\n');
  const copyCommand = 'Copy Claude Code Command';
  const copyEnvironment = 'Copy Environment';
  const choice = await vscode.window.showInformationMessage('Redline connection', { modal: true, detail }, copyCommand, copyEnvironment);
  if (choice === copyCommand) await vscode.env.clipboard.writeText(claudeCommand);
  if (choice === copyEnvironment) await vscode.env.clipboard.writeText(environment);
}
