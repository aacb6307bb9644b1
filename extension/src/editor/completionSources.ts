// What the window offers to complete prompt arguments with: the workspace's git refs and files.
// The file list is cached for a few seconds, since a client asks again at every keystroke.

import * as vscode from 'vscode';
import type { FindWorkspaceFilesResult, ListGitRefsResult } from '../../../shared/protocol';
import { completeFilePath } from './fileCompletion';
import { listGitRefs } from './gitRefs';
import { fileFolders } from './editorContext';

const FILE_LIST_TTL_MS = 10_000;
/** A larger workspace is completed from its first files found: completion is a convenience. */
const MAX_FILES_LISTED = 20_000;

export class CompletionSources {
  private fileList: { readonly at: number; readonly paths: Promise<string[]> } | undefined;

  /** Empty in an untrusted workspace: its repository's config is not the user's to run git with. */
  gitRefs(prefix: string): Promise<ListGitRefsResult> | ListGitRefsResult {
    if (!vscode.workspace.isTrusted) return { refs: [], truncated: false };
    return listGitRefs(
      fileFolders().map((folder) => folder.uri.fsPath),
      prefix,
    );
  }

  async workspaceFiles(prefix: string): Promise<FindWorkspaceFilesResult> {
    return completeFilePath(await this.listFiles(), prefix);
  }

  private listFiles(): Promise<string[]> {
    const now = Date.now();
    if (this.fileList && now - this.fileList.at < FILE_LIST_TTL_MS) return this.fileList.paths;
    // files.exclude applies (the exclude argument is left undefined); dependencies are left out too.
    const paths = Promise.resolve(vscode.workspace.findFiles('**/*', undefined, MAX_FILES_LISTED)).then((uris) =>
      uris
        .filter((uri) => uri.scheme === 'file')
        .map((uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1))
        .filter((relative) => !relative.split('/').includes('node_modules')),
    );
    paths.catch(() => (this.fileList = undefined));
    this.fileList = { at: now, paths };
    return paths;
  }
}
