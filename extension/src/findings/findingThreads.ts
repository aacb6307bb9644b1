// Every finding as a native comment thread at its code: the assistant's text as the first comment,
// the user's replies after it, the severity as the thread's label. Threads are listed in the
// Comments view. Their actions (reply, resolve, accept, won't fix, reopen, show in the panel) are
// commands contributed in package.json; this class only keeps the threads in step with the list.

import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import { oneLine } from '../../../shared/plainText';
import type { FeedbackItem, FindingState } from '../../../shared/protocol';
import type { ShownFinding } from '../review/reviewFindings';
import { threadBody } from './threadMarkdown';
import type { EditorInFront } from '../editor/editorInFront';
import { keepsPreview } from '../editor/tabState';

export const COMMENT_CONTROLLER_ID = 'redline';
/**
 * Threads are made for this many findings, in review order: each thread is a widget the workbench
 * draws and lists in the Comments view, and a review that lists every call site would keep the
 * window busy. Every finding is still in the panel, Problems and get-review.
 */
export const MAX_THREADS = 100;

/** What `commentThread == …` sees in package.json's `when` clauses: `redline-open` or `redline-closed`. */
const contextOf = (state: FindingState) => (state === 'open' ? 'redline-open' : 'redline-closed');

const STATE_LABELS: Record<FindingState, string> = {
  open: '',
  resolved: 'resolved',
  accepted: 'accepted',
  'wont-fix': "won't fix",
};

export class FindingThreads extends Disposable {
  private readonly controller = this.register(
    vscode.comments.createCommentController(COMMENT_CONTROLLER_ID, 'Redline'),
  );
  private readonly threads = new Map<string, { thread: vscode.CommentThread; shown: string }>();
  private readonly ids = new WeakMap<vscode.CommentThread, string>();

  constructor(
    private readonly repliesTo: (findingId: string) => readonly FeedbackItem[],
    /** The column code opens in: not the panel's, so the panel stays in view. */
    private readonly codeColumn: () => vscode.ViewColumn,
    /** Keeps the finding's editor in front of the panel's late focus change. */
    private readonly inFront: EditorInFront,
  ) {
    super();
    // Disposing the controller disposes its threads.
    this.register(toDisposable(() => this.threads.clear()));
    this.controller.options = {
      prompt: 'Reply to the assistant…',
      placeHolder: 'Your reply reaches the assistant through get-review-feedback',
    };
  }

  /** Creates, updates and removes threads so that there is one per finding, as the list says now. */
  update(all: readonly ShownFinding[]): void {
    const findings = all.slice(0, MAX_THREADS);
    const wanted = new Set(findings.map((f) => f.id));
    for (const [id, { thread }] of this.threads) {
      if (!wanted.has(id)) {
        thread.dispose();
        this.threads.delete(id);
      }
    }
    for (const finding of findings) {
      const replies = this.repliesTo(finding.id);
      // Threads are redrawn only when something they show changed: a redraw closes an open reply box.
      const shown = JSON.stringify([
        finding.file,
        finding.line,
        finding.endLine,
        finding.state,
        finding.stale,
        finding.markdown,
        replies.length,
      ]);
      const existing = this.threads.get(finding.id);
      if (existing?.shown === shown) continue;
      const range = new vscode.Range(finding.line - 1, 0, finding.endLine - 1, 0);
      const comments = [this.findingComment(finding), ...replies.map(replyComment)];
      if (existing && existing.thread.uri.fsPath === finding.file) {
        existing.thread.range = range;
        existing.thread.comments = comments;
        this.style(existing.thread, finding);
        existing.shown = shown;
        continue;
      }
      existing?.thread.dispose();
      const thread = this.controller.createCommentThread(vscode.Uri.file(finding.file), range, comments);
      thread.canReply = true;
      this.style(thread, finding);
      this.ids.set(thread, finding.id);
      this.threads.set(finding.id, { thread, shown });
    }
  }

  /** The finding a thread shows, for the commands its actions run. */
  findingOf(thread: vscode.CommentThread | undefined): string | undefined {
    return thread && this.ids.get(thread);
  }

  /**
   * Opens the finding's file at its lines as they are now, the cursor on the first, and expands its
   * thread (a finding past MAX_THREADS has none: its lines still open).
   */
  async reveal(finding: ShownFinding): Promise<void> {
    const range = new vscode.Range(finding.line - 1, 0, finding.endLine - 1, 0);
    const uri = vscode.Uri.file(finding.file);
    const viewColumn = this.codeColumn();
    this.inFront.showing();
    const editor = await vscode.window.showTextDocument(uri, {
      viewColumn,
      selection: new vscode.Range(range.start, range.start),
      preview: keepsPreview(uri, viewColumn),
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.inFront.hold(editor);
    const thread = this.threads.get(finding.id)?.thread;
    if (thread) thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
  }

  /** A finding's thread, for tests (which act as the user does, through the thread's commands). */
  threadOf(findingId: string): vscode.CommentThread | undefined {
    return this.threads.get(findingId)?.thread;
  }

  get count(): number {
    return this.threads.size;
  }

  private style(thread: vscode.CommentThread, finding: ShownFinding): void {
    const parts = [
      finding.severity ?? 'finding',
      STATE_LABELS[finding.state],
      finding.stale ? 'code changed' : '',
    ].filter(Boolean);
    thread.label = parts.join(' · ');
    thread.contextValue = contextOf(finding.state);
    thread.state = finding.state === 'open' ? vscode.CommentThreadState.Unresolved : vscode.CommentThreadState.Resolved;
  }

  private findingComment(finding: ShownFinding): vscode.Comment {
    // Trusted as markdown only: no command links, no HTML and no images (the review is the assistant's text).
    const shown = threadBody(finding.markdown);
    const body = new vscode.MarkdownString();
    if ('markdown' in shown) body.appendMarkdown(shown.markdown);
    else body.appendText(shown.text);
    body.isTrusted = false;
    body.supportHtml = false;
    return {
      body,
      mode: vscode.CommentMode.Preview,
      author: { name: finding.assistant ?? 'Assistant' },
      label: finding.severity ?? undefined,
    };
  }
}

/** A reply: the user's, or one imported from a file, which says so where the author's name goes. */
function replyComment(item: FeedbackItem): vscode.Comment {
  const body = new vscode.MarkdownString();
  body.appendText(item.text ?? '');
  const imported = item.source === 'import';
  return {
    body,
    mode: vscode.CommentMode.Preview,
    author: { name: imported ? 'Imported' : 'You' },
    ...(imported ? { label: oneLine(item.origin ?? 'imported from a file', 160) } : {}),
    timestamp: new Date(item.at),
  };
}
