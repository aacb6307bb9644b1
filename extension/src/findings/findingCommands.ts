// The commands behind a finding's actions: its comment thread's buttons and reply field, and its
// quick fixes in the Problems view. Each one only turns its arguments into a finding id.

import * as vscode from 'vscode';
import type { FindingState } from '../../../shared/protocol';
import { FindingCommands, type FindingCommandName } from '../constants';
import type { FindingFeedback } from './findingFeedback';
import type { FindingThreads } from './findingThreads';

export function registerFindingCommands(
  /** The feedback of the review whose threads are shown. */
  feedback: () => FindingFeedback,
  threads: FindingThreads,
  showInPanel: (findingId: string) => void,
): vscode.Disposable[] {
  const onThread = (act: (id: string) => unknown) => (thread: vscode.CommentThread | undefined) => {
    const id = threads.findingOf(thread);
    if (id) return act(id);
  };
  const state = (value: FindingState) => onThread((id) => feedback().setState(id, value));
  const byId = (act: (id: string) => unknown) => (id: unknown) => (typeof id === 'string' ? act(id) : undefined);
  const handlers: Record<FindingCommandName, (...args: never[]) => unknown> = {
    reply: (reply: vscode.CommentReply) => {
      const id = threads.findingOf(reply?.thread);
      if (id) return feedback().reply(id, reply.text);
    },
    resolve: state('resolved'),
    accept: state('accepted'),
    wontFix: state('wont-fix'),
    reopen: state('open'),
    showInPanel: onThread(showInPanel),
    replyTo: byId((id) => feedback().promptReply(id)),
    resolveById: byId((id) => feedback().setState(id, 'resolved')),
    askToFix: byId((id) => feedback().askToFix(id)),
  };
  return (Object.keys(handlers) as FindingCommandName[]).map((name) =>
    vscode.commands.registerCommand(FindingCommands[name], handlers[name] as (...args: unknown[]) => unknown),
  );
}
