// Redline's MCP prompts: review-changes (since a git ref), review-file, and explain-selection.
// Each returns one user message that says what to look at and, from reviewGuide.ts, how to
// present it. Arguments are completed from the window: its git refs and its files.

import { completable, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { McpServer, GetPromptResult } from '@modelcontextprotocol/server';
import type { GetSelectionResult } from '../../../shared/protocol';
import { bridgeFor, type ToolContext } from '../tools/toolContext';
import { fenceFor, filePath, gitRevision, pathList, shellQuote, splitPaths } from './promptArguments';
import { REVIEW_GUIDE } from './reviewGuide';
import { z } from 'zod';

export function registerReviewPrompts(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  const log = context.log.for('prompts');
  // A completion the window cannot give is an empty one: the user can still type the value.
  const complete = async (what: string, ask: () => Promise<string[]>): Promise<string[]> => {
    try {
      return await ask();
    } catch (error) {
      log.warn('completion-failed', { what, error: String((error as Error)?.message ?? error).slice(0, 300) });
      return [];
    }
  };
  const completeRef = (typed: string | undefined) =>
    complete('base', async () =>
      (await bridge.request('list-git-refs', { prefix: typed ?? '' })).refs.map((ref) => ref.name),
    );
  const completeFile = (typed: string | undefined) =>
    complete('file', async () => (await bridge.request('find-workspace-files', { prefix: typed ?? '' })).files);

  server.registerPrompt(
    'review-changes',
    {
      title: 'Review changes',
      description: 'Review what changed in the repository since a git ref, and present the review in VS Code.',
      argsSchema: z.object({
        // Optional outside completable(): the SDK finds the completer only on the outer schema.
        base: completable(
          gitRevision.describe(
            'The git ref to compare with: HEAD (the default) reviews uncommitted changes; main reviews the branch.',
          ),
          completeRef,
        ).optional(),
        paths: completable(pathList.describe('Only these files or folders, separated by spaces.'), async (typed) => {
          // The last path is the one being typed; the ones before it stay as they are.
          const value = typed ?? '';
          const cut = value.search(/\S*$/);
          return (await completeFile(value.slice(cut))).map((file) => value.slice(0, cut) + file);
        }).optional(),
      }),
    },
    ({ base, paths }) => reviewChangesPrompt(base ?? 'HEAD', splitPaths(paths)),
  );

  server.registerPrompt(
    'review-file',
    {
      title: 'Review a file',
      description: 'Review one file of the workspace, and present the review in VS Code.',
      argsSchema: z.object({
        file: completable(filePath.describe('The file to review, relative to the workspace.'), completeFile),
      }),
    },
    ({ file }) =>
      userMessage(
        `Review the file ${file}: read all of it, and what it calls where that matters, and look for bugs, risks and unclear code.`,
        'Put a finding on each problem with the lines it is about, and say what to do about it. Start with a one-paragraph summary of what the file does.',
      ),
  );

  server.registerPrompt(
    'explain-selection',
    {
      title: 'Explain the selection',
      description: 'Explain the code the user has selected in VS Code, as a walkthrough in the review panel.',
    },
    async (ctx) => explainSelectionPrompt(await bridge.request('get-selection', {}, { signal: ctx.mcpReq.signal })),
  );
}

function reviewChangesPrompt(base: string, paths: readonly string[]): GetPromptResult {
  const scope = paths.length > 0 ? ` -- ${paths.map(shellQuote).join(' ')}` : '';
  const what =
    base === 'HEAD' ? 'the uncommitted changes in this repository' : `the changes in this repository since ${base}`;
  return userMessage(
    `Review ${what}${paths.length > 0 ? `, limited to ${paths.join(', ')}` : ''}.`,
    `Read them with \`git diff ${shellQuote(base)}${scope}\`${base === 'HEAD' ? ', and `git status` for new files' : ''}. ` +
      'Read the surrounding code where a change depends on it. Look for bugs, risks, missing tests and unclear code.',
    'Start with a summary of what changed; then put a finding on each problem, referencing the changed lines as they are now.',
  );
}

function explainSelectionPrompt({ editor }: GetSelectionResult): GetPromptResult {
  const selections = editor?.selections.filter((selection) => !selection.isEmpty) ?? [];
  if (!editor || selections.length === 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'Nothing is selected in VS Code. Select the code to explain in an editor, then use the prompt again.',
    );
  }
  if (selections.every((selection) => selection.withheld)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'The selected text is withheld: the file is outside the workspace and was opened for an assistant. Select the lines in it yourself, then use the prompt again.',
    );
  }
  const file = editor.relativePath ?? editor.path;
  const parts = selections
    .filter((selection) => !selection.withheld)
    .map((selection) => {
      const fence = fenceFor(selection.text);
      const cut = selection.truncated
        ? '\n(The selection is longer; this is its start. Read the rest from the file.)'
        : '';
      return `${file}:${selection.start.line}-${selection.end.line}\n${fence}${editor.languageId}\n${selection.text}\n${fence}${cut}`;
    });
  return userMessage(
    `Explain this code, which I have selected in VS Code${editor.isDirty ? ' (the file has unsaved changes)' : ''}:`,
    parts.join('\n\n'),
    'Explain what it does and why, step by step, referencing the lines you talk about and the code it calls. ' +
      'Present the explanation as a walkthrough; mark anything that looks wrong as a finding.',
  );
}

function userMessage(...paragraphs: string[]): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text: [...paragraphs, REVIEW_GUIDE].join('\n\n') } }] };
}
