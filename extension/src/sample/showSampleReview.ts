// Redline: Show Sample Review: a review in seconds with no assistant. The sample (a review of a
// small rate limiter, and the files it reviews) ships in the extension; it is presented through the
// bridge's own present-review, in a tab of its own, so no assistant's review is replaced, and its
// references resolve in the shipped files (the renderer counts that folder as inside).

import * as path from 'path';
import * as vscode from 'vscode';
import type { PresentReviewParams, PresentReviewResult } from '../../../shared/protocol';
import { SampleReview } from '../constants';

export type PresentReview = (params: PresentReviewParams) => Promise<PresentReviewResult>;

/** The folder of the files the sample reviews, inside the installed extension. */
export function sampleWorkspace(extensionPath: string): string {
  return path.join(extensionPath, ...SampleReview.workspace);
}

export async function showSampleReview(
  extensionUri: vscode.Uri,
  present: PresentReview,
): Promise<PresentReviewResult | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...SampleReview.markdown));
    return await present({
      content: new TextDecoder().decode(bytes),
      title: SampleReview.title,
      cwd: sampleWorkspace(extensionUri.fsPath),
      assistant: SampleReview.assistant,
    });
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Redline could not show its sample review: ${(error as Error)?.message ?? String(error)}. Reinstalling Redline restores it.`,
    );
    return undefined;
  }
}
