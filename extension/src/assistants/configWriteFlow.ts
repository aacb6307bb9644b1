// Asks before Redline changes an assistant's config file: the change is shown in VS Code's diff
// editor (the file as it is against the file as it would be) with a modal to write it or not, and
// only an explicit "Write" (or "Remove") touches the disk. The edit itself is configFiles/.

import * as path from 'path';
import * as vscode from 'vscode';
import { DisposableStore, toDisposable, type IDisposable } from '../../../shared/lifecycle';
import { ConfigFileError, writeConfigChange, type ConfigChange, type ConfigPlan } from './configFiles/configFile';

/** What became of the offer: `alternative` is the extra button the caller named (say, "Copy Snippet Instead"). */
export type WriteOutcome = 'written' | 'unchanged' | 'invalid' | 'cancelled' | 'alternative' | 'failed';

export interface WriteOptions {
  /** The modal's title, e.g. "Add Redline to ~/.cursor/mcp.json?". */
  readonly title: string;
  /** A second choice besides writing, such as copying the snippet instead. */
  readonly alternative?: string;
  /** What to tell the user after a write, after the file's name; e.g. "Restart Cursor's agent to use it." */
  readonly afterWrite?: string;
}

const PREVIEW_SCHEME = 'redline-config-preview';

export async function confirmAndWrite(plan: ConfigPlan, options: WriteOptions): Promise<WriteOutcome> {
  const alternatives = options.alternative ? [options.alternative] : [];
  if (plan.kind === 'invalid') {
    const answer = await vscode.window.showErrorMessage(
      `Redline cannot change ${plan.target.displayPath}`,
      { modal: true, detail: plan.message },
      ...alternatives,
    );
    return answer !== undefined && answer === options.alternative ? 'alternative' : 'invalid';
  }
  if (plan.kind === 'unchanged') {
    const title =
      plan.operation.kind === 'remove'
        ? `${plan.target.displayPath} has no Redline entry: nothing to remove.`
        : `${plan.target.displayPath} already has Redline's entry as it should be: nothing to change.`;
    const answer = await vscode.window.showInformationMessage(title, { modal: true }, ...alternatives);
    return answer !== undefined && answer === options.alternative ? 'alternative' : 'unchanged';
  }

  const { change } = plan;
  const removing = change.operation.kind === 'remove';
  const write = removing ? 'Remove' : 'Write';
  const preview = await showPreview(change);
  let answer: string | undefined;
  try {
    answer = await vscode.window.showInformationMessage(
      options.title,
      { modal: true, detail: consentDetail(change) },
      write,
      ...alternatives,
    );
  } finally {
    await preview.dispose();
  }
  if (answer === undefined) return 'cancelled';
  if (answer !== write) return 'alternative';

  try {
    const written = await writeConfigChange(change);
    const backup = written.backup ? ` The file as it was is kept as ${path.basename(written.backup)}.` : '';
    const done = removing
      ? `Redline: removed Redline from ${change.target.displayPath}.`
      : `Redline: added Redline to ${change.target.displayPath}.`;
    void vscode.window.showInformationMessage(`${done}${backup}${options.afterWrite ? ` ${options.afterWrite}` : ''}`);
    return 'written';
  } catch (error) {
    const message =
      error instanceof ConfigFileError
        ? error.message
        : `Redline could not write ${change.target.displayPath}: ${(error as Error)?.message ?? error}`;
    void vscode.window.showErrorMessage(message);
    return 'failed';
  }
}

function consentDetail(change: ConfigChange): string {
  const { displayPath, file } = change.target;
  const what =
    change.operation.kind === 'remove'
      ? `Redline removes its "${change.target.entryPath[1]}" entry from ${displayPath}, as the diff editor shows, and changes nothing else.`
      : `Redline adds its "${change.target.entryPath[1]}" entry to ${displayPath}, as the diff editor shows, and changes nothing else. ` +
        'No socket or token goes into the file.';
  // A symlink may lead anywhere its owner (or anyone who could write it) chose, so the consent names the real file.
  const link =
    change.realFile !== file ? `${displayPath} is a symbolic link: the file changed is ${change.realFile}.\n\n` : '';
  const backup =
    change.before === undefined
      ? `The file does not exist yet: Redline creates it.`
      : `The file as it is now is kept beside it as ${path.basename(change.realFile)}.redline-backup-<date>-<time>.`;
  return `${link}${what}\n\n${backup}`;
}

/** Both sides are snapshots, so the diff shows exactly what is compared and written, even if the file is open with unsaved edits. */
async function showPreview(change: ConfigChange): Promise<IDisposable> {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const name = path.basename(change.target.file);
  // The file's own name ends each path, so the editor picks JSON or TOML highlighting for both sides.
  const current = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${id}/now/${name}` });
  const proposed = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${id}/proposed/${name}` });
  const contents = new Map([
    [current.toString(), change.before ?? ''],
    [proposed.toString(), change.after],
  ]);
  const preview = new DisposableStore();
  preview.add(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      provideTextDocumentContent: (uri) => contents.get(uri.toString()) ?? '',
    }),
  );
  // Released before the provider: the diff editor is closed while its contents are still there.
  preview.add(toDisposable(() => closeDiffTabs(proposed)));
  const verb = change.operation.kind === 'remove' ? 'without' : 'with';
  try {
    await vscode.commands.executeCommand(
      'vscode.diff',
      current,
      proposed,
      `${change.target.displayPath}: now ↔ ${verb} Redline`,
      { preview: true },
    );
  } catch (error) {
    // The modal still says what changes; the diff is a closer look.
    void vscode.window.showWarningMessage(
      `Redline could not show the change in a diff editor: ${(error as Error)?.message ?? error}`,
    );
  }
  return preview;
}

/** Closes the diff editors whose right side is `proposed`; one that will not close is left to the user. */
async function closeDiffTabs(proposed: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposed.toString(),
    );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
}
