// "Redline: Connect an Assistant…": pick an assistant and get the exact command or config entry
// for this installation, copied to the clipboard and shown with what it needs to work.

import * as vscode from 'vscode';
import { ASSISTANTS, buildSetup, type AssistantId } from './assistantSetup';
import { resolveNodeCommand, serverScriptPath, type IpcEndpoint } from './serverLaunch';

export interface ConnectAssistantDeps {
  readonly extensionUri: vscode.Uri;
  /** This window's bridge, if it is running. */
  readonly bridge: () => { readonly socketPath: string; readonly token: string } | undefined;
}

export async function connectAssistant({ extensionUri, bridge }: ConnectAssistantDeps): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    ASSISTANTS.map((assistant): vscode.QuickPickItem & { id: AssistantId } => ({ ...assistant })),
    { title: 'Connect an Assistant to Redline', placeHolder: 'Which assistant do you use?', matchOnDetail: true },
  );
  if (!picked) return;

  const host = bridge();
  const ipc: IpcEndpoint | undefined = host && { path: host.socketPath, token: host.token };
  const setup = buildSetup(picked.id, {
    serverPath: serverScriptPath(extensionUri.fsPath),
    nodeCommand: resolveNodeCommand(),
    ipc,
  });
  if (setup.containsSecret && !(await agreesToShowToken())) return;
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

/** A snippet with this window's token is shown and copied only once the user has read what the token allows. */
async function agreesToShowToken(): Promise<boolean> {
  const show = 'Show and Copy';
  const answer = await vscode.window.showWarningMessage(
    'This snippet holds the token of this window\'s Redline bridge.',
    {
      modal: true,
      detail:
        'Any program that has the token can read your selection in this window, open files in it and show reviews in it. ' +
        'Redline copies the snippet to the clipboard and shows it: keep it out of shared files and version control.',
    },
    show,
  );
  return answer === show;
}
