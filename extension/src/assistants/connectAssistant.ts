// "Redline: Connect an Assistant…": pick an assistant, then Redline offers to add itself to that
// assistant's user config (through `claude mcp add` for Claude Code, by editing the file for the
// others, always after showing the change); otherwise, or when declined, the exact command or
// config entry is copied to the clipboard and shown with what it needs to work.

import * as os from 'os';
import * as vscode from 'vscode';
import { ASSISTANTS, buildSetup, type AssistantId, type AssistantSetup } from './assistantSetup';
import { CLAUDE_REMOVE_ARGS, claudeAddArgs, findClaude, runClaude } from './claudeCode';
import { planConfigChange } from './configFiles/configFile';
import {
  configTarget,
  isFileAssistant,
  serverEntry,
  vscodeUserDirectory,
  type FileAssistant,
  type TargetEnvironment,
} from './configFiles/configTargets';
import { confirmAndWrite } from './configWriteFlow';
import {
  currentRuntime,
  resolveNodeCommand,
  serverScriptPath,
  type IpcEndpoint,
  type NodeCommand,
} from './serverLaunch';
import { shellCommand } from './shellCommand';
import { serverPathForConfigs } from './stableServerPath';

export interface ConnectAssistantDeps {
  readonly extensionUri: vscode.Uri;
  /** `<user data>/User/globalStorage/<id>`: locates VS Code's user mcp.json. */
  readonly globalStorageUri: vscode.Uri;
  /** This window's bridge, if it is running. */
  readonly bridge: () => { readonly socketPath: string; readonly token: string } | undefined;
}

/** What each assistant needs after its config changed. */
const AFTER_WRITE: Record<FileAssistant, string> = {
  cursor: "Check that Redline is enabled in Cursor's MCP settings.",
  codex: 'New Codex sessions have it.',
  gemini: 'New Gemini CLI sessions have it.',
  vscode: 'Agent mode lists it in "MCP: List Servers".',
};

export async function connectAssistant(deps: ConnectAssistantDeps): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    ASSISTANTS.map((assistant): vscode.QuickPickItem & { id: AssistantId } => ({ ...assistant })),
    { title: 'Connect an Assistant to Redline', placeHolder: 'Which assistant do you use?', matchOnDetail: true },
  );
  if (!picked) return;

  const { serverPath, stable } = serverPathForConfigs(serverScriptPath(deps.extensionUri.fsPath));
  const nodeCommand = resolveNodeCommand();
  const handled =
    picked.id === 'claude-code'
      ? await offerClaudeCode(serverPath, nodeCommand)
      : isFileAssistant(picked.id)
        ? await offerConfigFile(picked.id, {
            serverPath,
            node: nodeCommand,
            environment: assistantEnvironment(deps.globalStorageUri),
          })
        : false;
  if (handled) return;

  const host = deps.bridge();
  const ipc: IpcEndpoint | undefined = host && { path: host.socketPath, token: host.token };
  await showSnippet(buildSetup(picked.id, { serverPath, stablePath: stable, nodeCommand, ipc }));
}

/** Where the assistants' user configs are on this machine (the extension host's, which is where the assistants run). */
export function assistantEnvironment(globalStorageUri: vscode.Uri): TargetEnvironment {
  return {
    home: os.homedir(),
    vscodeUserDirectory: globalStorageUri.scheme === 'file' ? vscodeUserDirectory(globalStorageUri.fsPath) : undefined,
  };
}

/** True when the user was served (written, declined, nothing to do); false to show the snippet instead. */
async function offerClaudeCode(serverPath: string, node: NodeCommand): Promise<boolean> {
  const claude = findClaude(currentRuntime());
  if (!claude) return false;
  const addArgs = claudeAddArgs(serverPath, node);
  const shell = process.platform === 'win32' ? 'powershell' : 'posix';
  const run = 'Run';
  const copy = 'Copy Command Instead';
  const answer = await vscode.window.showInformationMessage(
    'Add Redline to Claude Code for all your projects?',
    {
      modal: true,
      detail:
        `Redline runs:\n\n${shellCommand(['claude', ...addArgs], shell)}\n\n` +
        `If Claude Code has a Redline entry already, Redline replaces it (${shellCommand(['claude', ...CLAUDE_REMOVE_ARGS], shell)}, then the same add).\n\n` +
        "No socket or token goes into Claude Code's config: the server finds the VS Code window of the folder you start `claude` in.",
    },
    run,
    copy,
  );
  if (answer === undefined) return true;
  if (answer !== run) return false;

  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Redline: adding Redline to Claude Code…' },
    async () => {
      const added = await runClaude(claude, addArgs);
      // `claude mcp add` refuses a name that exists: that entry is Redline's own, with an older path or runtime.
      if (added.ok || !/already exists/i.test(added.output)) return added;
      const removed = await runClaude(claude, CLAUDE_REMOVE_ARGS);
      return removed.ok ? runClaude(claude, addArgs) : removed;
    },
  );
  if (result.ok) {
    void vscode.window.showInformationMessage(
      'Redline: added Redline to Claude Code for all your projects. Start `claude` in your project to use it.',
    );
    return true;
  }
  void vscode.window.showErrorMessage(
    `Redline: "claude mcp add" failed${result.output ? `: ${result.output}` : ''}. The command to run yourself follows.`,
  );
  return false;
}

interface ConfigFileOffer {
  readonly serverPath: string;
  readonly node: NodeCommand;
  /** Where the assistant's user config is. */
  readonly environment: TargetEnvironment;
}

/** Like offerClaudeCode, for the assistants whose config file Redline edits itself. */
async function offerConfigFile(
  assistant: FileAssistant,
  { serverPath, node, environment }: ConfigFileOffer,
): Promise<boolean> {
  const target = configTarget(assistant, environment);
  if (!target) return false;
  const copy = 'Copy Snippet Instead';
  if (assistant === 'vscode' && typeof vscode.lm?.registerMcpServerDefinitionProvider === 'function') {
    // The native registration (mcpDefinitionProvider.ts) is the better path: it follows this window without any file.
    const addAnyway = 'Add to User mcp.json Anyway…';
    const answer = await vscode.window.showInformationMessage(
      "VS Code's agent mode already has Redline",
      {
        modal: true,
        detail:
          'Redline registers its server with agent mode in every window: look for Redline in "MCP: List Servers". ' +
          `Nothing needs to be added. An entry in ${target.displayPath} is only for an editor without that API; ` +
          'in VS Code the agent would list Redline twice.',
      },
      addAnyway,
      copy,
    );
    if (answer === undefined) return true;
    if (answer !== addAnyway) return false;
  }
  const plan = await planConfigChange(target, { kind: 'set', entry: serverEntry(assistant, serverPath, node) });
  const outcome = await confirmAndWrite(plan, {
    title: `Add Redline to ${target.displayPath}?`,
    alternative: copy,
    afterWrite: AFTER_WRITE[assistant],
  });
  return outcome !== 'alternative' && outcome !== 'failed';
}

async function showSnippet(setup: AssistantSetup): Promise<void> {
  if (setup.containsSecret && !(await agreesToCopyToken('This snippet', 'Show and Copy'))) return;
  await vscode.env.clipboard.writeText(setup.text);

  // A modal keeps the note next to the snippet; the editor is there for a closer look.
  const openInEditor = 'Open in Editor';
  const detail = `Copied to the clipboard:\n\n${setup.text.trimEnd()}\n\n${setup.note}`;
  const choice = await vscode.window.showInformationMessage(setup.title, { modal: true, detail }, openInEditor);
  if (choice === openInEditor) {
    const document = await vscode.workspace.openTextDocument({ language: setup.language, content: setup.text });
    await vscode.window.showTextDocument(document);
  }
}

/**
 * Text with this window's token is copied (and shown) only once the user has read what the token
 * allows. `subject` names the text ("This snippet"), `agree` the button that goes ahead.
 */
export async function agreesToCopyToken(subject: string, agree: string): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    `${subject} holds the token of this window's Redline bridge.`,
    {
      modal: true,
      detail:
        'Any program that has the token can read your selection in this window, open files in it and show reviews in it. ' +
        'Redline copies it to the clipboard: keep it out of shared files and version control.',
    },
    agree,
  );
  return answer === agree;
}
