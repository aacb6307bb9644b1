// "Redline: Remove Redline from…": takes Redline's entry out of an assistant's user config with
// the same writers as "Connect an Assistant" (a diff first, a backup, nothing else changed), or
// `claude mcp remove` for Claude Code.

import * as vscode from 'vscode';
import { ASSISTANTS } from './assistantSetup';
import { CLAUDE_REMOVE_ARGS, findClaude, runClaude } from './claudeCode';
import { planConfigChange } from './configFiles/configFile';
import { configTarget, isFileAssistant, type ConfigTarget } from './configFiles/configTargets';
import { confirmAndWrite } from './configWriteFlow';
import { assistantEnvironment } from './connectAssistant';
import { currentRuntime } from './serverLaunch';
import { shellCommand } from './shellCommand';

export interface RemoveAssistantDeps {
  readonly globalStorageUri: vscode.Uri;
}

type RemoveChoice = vscode.QuickPickItem &
  ({ readonly action: 'claude-code' } | { readonly action: 'file'; readonly target: ConfigTarget });

export async function removeFromAssistant({ globalStorageUri }: RemoveAssistantDeps): Promise<void> {
  const environment = assistantEnvironment(globalStorageUri);
  const shell = process.platform === 'win32' ? 'powershell' : 'posix';
  const choices: RemoveChoice[] = [];
  for (const assistant of ASSISTANTS) {
    if (assistant.id === 'claude-code') {
      choices.push({
        action: 'claude-code',
        label: assistant.label,
        detail: shellCommand(['claude', ...CLAUDE_REMOVE_ARGS], shell),
      });
    } else if (isFileAssistant(assistant.id)) {
      const target = configTarget(assistant.id, environment);
      if (target) choices.push({ action: 'file', target, label: assistant.label, detail: target.displayPath });
    }
  }
  const picked = await vscode.window.showQuickPick(choices, {
    title: 'Remove Redline from an Assistant',
    placeHolder: "Whose config should no longer start Redline's server?",
    matchOnDetail: true,
  });
  if (!picked) return;

  if (picked.action === 'claude-code') {
    await removeFromClaudeCode(shell);
    return;
  }
  const plan = await planConfigChange(picked.target, { kind: 'remove' });
  await confirmAndWrite(plan, { title: `Remove Redline from ${picked.target.displayPath}?` });
}

async function removeFromClaudeCode(shell: 'powershell' | 'posix'): Promise<void> {
  const command = shellCommand(['claude', ...CLAUDE_REMOVE_ARGS], shell);
  const claude = findClaude(currentRuntime());
  if (!claude) {
    const copy = 'Copy Command';
    const answer = await vscode.window.showInformationMessage(
      'Run this in a terminal to remove Redline from Claude Code',
      {
        modal: true,
        detail: `${command}\n\nRedline cannot run \`claude\` itself: it is not on the PATH that VS Code sees.`,
      },
      copy,
    );
    if (answer === copy) await vscode.env.clipboard.writeText(command);
    return;
  }
  const remove = 'Remove';
  const answer = await vscode.window.showInformationMessage(
    'Remove Redline from Claude Code?',
    {
      modal: true,
      detail: `Redline runs:\n\n${command}\n\nClaude Code's other servers and settings stay as they are.`,
    },
    remove,
  );
  if (answer !== remove) return;
  const result = await runClaude(claude, CLAUDE_REMOVE_ARGS);
  if (result.ok) void vscode.window.showInformationMessage('Redline: removed Redline from Claude Code.');
  else
    void vscode.window.showErrorMessage(
      `Redline: "claude mcp remove" failed${result.output ? `: ${result.output}` : ''}.`,
    );
}
