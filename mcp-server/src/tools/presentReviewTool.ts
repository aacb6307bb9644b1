// present-review: shows a markdown review in the VS Code panel and reports which references
// resolved, so the assistant can fix the ones that point nowhere.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  FINDING_SEVERITIES,
  MAX_REVIEW_BYTES,
  MAX_SECTION_CHARS,
  PresentReviewResult,
  ReviewMode,
  type Finding,
} from '../../../shared/protocol';
import { reviewProgress } from './reviewProgress';
import { assistantOf, bridgeFor, type ToolContext } from './toolContext';
import { NEXT_STEPS, toolResult } from './toolResult';

const PresentReviewInput = z.object({
  content: z
    .string()
    .min(1)
    .max(MAX_REVIEW_BYTES)
    .describe(
      'The review as markdown (up to 10 MiB). Write code references as path:line, path:start-end or path#L10-L20.',
    ),
  mode: ReviewMode.default('replace').describe(
    '"replace" (default) shows a new review; "append" adds to the end of the current one; "update-section" replaces the body under one heading.',
  ),
  section: z
    .string()
    .min(1)
    .max(MAX_SECTION_CHARS)
    .optional()
    .describe(
      'For mode "update-section": the heading text whose body to replace. A missing heading is added as "## section".',
    ),
  title: z.string().max(500).optional().describe('A short title for the panel, e.g. "Review of the auth refactor".'),
});

export function registerPresentReviewTool(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  server.registerTool(
    'present-review',
    {
      title: 'Present review in VS Code',
      description:
        'Present a code review (or an explanation, a walkthrough) to the user in a rendered VS Code panel beside their code. ' +
        'Use it instead of printing a long review in the chat. Every file reference becomes a link that opens the file at that line: ' +
        'write them as path:line (src/auth.ts:42), path:start-end (src/auth.ts:40-55) or path#L40-L55, relative to your working ' +
        'directory or the workspace, or absolute. The result lists references that point at missing files or lines past the end; ' +
        'fix those and present again. Use mode "append" to add findings as you go, and "update-section" to revise one section. ' +
        'Write each finding as its own list item or paragraph whose first reference is the code it is about; start it with a ' +
        `severity label such as "**bug**:", "blocking:" or "nit:" (${FINDING_SEVERITIES.join(', ')}). Findings become comment threads ` +
        "in the code, where the user replies and marks them resolved, accepted or won't fix; read that with get-review-feedback or " +
        'wait for it with await-review-feedback. Your review is your own: another assistant in the same window has its own tab.',
      inputSchema: PresentReviewInput,
      outputSchema: PresentReviewResult.extend(NEXT_STEPS),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args, ctx) => {
      const progress = reviewProgress(ctx.mcpReq, Buffer.byteLength(args.content, 'utf8'));
      try {
        return await toolResult(
          () =>
            bridge.request(
              'present-review',
              { ...args, cwd: context.cwd, assistant: assistantOf(context) },
              { signal: ctx.mcpReq.signal, onProgress: progress?.onProgress },
            ),
          describePresented,
          nextStepsAfterPresenting,
        );
      } finally {
        // Before the result goes out: no progress may follow it.
        progress?.close();
      }
    },
  );
}

function describePresented(result: PresentReviewResult): string {
  const { references } = result;
  const lines = [
    `Shown in VS Code as revision ${result.revision} with ${result.sectionCount} section(s).`,
    `References: ${references.resolved} of ${references.total} resolved.`,
  ];
  if ((references.unchecked ?? 0) > 0) {
    lines.push(
      `${references.unchecked} reference(s) were not checked (the review names more files than one render looks at); they are not known to be broken.`,
    );
  }
  if (references.broken.length > 0) {
    lines.push('These references point at nothing; fix them and present again:');
    for (const broken of references.broken)
      lines.push(`- ${broken.reference} (line ${broken.line} of what you sent): ${broken.reason}`);
  }
  lines.push(...describeFindings(result.findings));
  return lines.join('\n');
}

/** The text's advice, for a model handed only the structured content (Claude Code, Codex). */
export function nextStepsAfterPresenting(result: PresentReviewResult): string[] {
  const { broken, unchecked = 0 } = result.references;
  return [
    ...(broken.length > 0
      ? [
          `Fix the ${broken.length} reference(s) in references.broken (each gives its line in what you sent and why it points at nothing), then present again.`,
        ]
      : []),
    ...(unchecked > 0
      ? [
          `${unchecked} reference(s) were not checked (the review names more files than one render looks at); they are not known to be broken.`,
        ]
      : []),
    ...(result.findings.length > 0
      ? [
          'The user answers findings in VS Code: read the answers with get-review-feedback, or wait for them with await-review-feedback.',
        ]
      : []),
  ];
}

/** One line per finding: its id (for get-review-feedback), severity, place and state. */
export function describeFindings(findings: readonly Finding[]): string[] {
  if (findings.length === 0) return [];
  return [
    `Findings (${findings.length}), each a comment thread in the code:`,
    ...findings.map(
      (f) =>
        `- ${f.id} ${f.severity ?? 'finding'} at ${f.file}:${f.line}${f.endLine > f.line ? `-${f.endLine}` : ''}` +
        `${f.state === 'open' ? '' : ` [${f.state}]`}${f.stale ? ' [code changed]' : ''}: ${f.title}`,
    ),
  ];
}
