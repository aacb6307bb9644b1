// The tools only the review's view calls (mcp-server/src/appView/): what it lists, the user's
// answer to a finding, and the panel brought to the front. A client that renders no views never
// sees them (uiNegotiation.ts); one that does keeps them from the model. What they are given comes
// from a page in a chat, so it is checked like any other call's: here by the schema, in the window
// against the review it has.

import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  AnswerFindingResult,
  GetReviewViewResult,
  MAX_FEEDBACK_TEXT,
  RevealReviewResult,
  ViewDecision,
} from '../../../shared/protocol';
import { APP_ONLY } from '../appView/uiNegotiation';
import { assistantOf, bridgeFor, type ToolContext } from './toolContext';
import { toolResult } from './toolResult';

export const REVIEW_VIEW_TOOLS = ['get-review-view', 'answer-finding', 'reveal-review'] as const;

const FindingId = z.string().min(1).max(200).describe('The id of a finding of the review the view shows.');

export function registerReviewViewTools(server: McpServer, context: ToolContext): void {
  const bridge = bridgeFor(context);
  const assistant = () => assistantOf(context);
  server.registerTool(
    'get-review-view',
    {
      title: 'Read the review for its view',
      description: "The review's view in the chat reads the review's title and findings, with their states, here.",
      inputSchema: z.object({}),
      outputSchema: GetReviewViewResult,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: APP_ONLY,
    },
    (_args, ctx) =>
      toolResult(
        () => bridge.request('get-review-view', { assistant: assistant() }, { signal: ctx.mcpReq.signal }),
        (view) =>
          view.revision === 0
            ? 'No review is shown in VS Code.'
            : `Revision ${view.revision} with ${view.findings.length} finding(s).`,
      ),
  );
  server.registerTool(
    'answer-finding',
    {
      title: 'Answer a finding from the view',
      description:
        "Records the user's answer to a finding, given in the review's view in the chat: a new state, a reply, or both.",
      inputSchema: z.object({
        findingId: FindingId,
        state: ViewDecision.optional().describe('"resolved", "wont-fix", or "open" to take a decision back.'),
        reply: z.string().max(MAX_FEEDBACK_TEXT).optional().describe("The user's reply to the finding."),
      }),
      outputSchema: AnswerFindingResult,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      _meta: APP_ONLY,
    },
    (args, ctx) =>
      toolResult(
        () => bridge.request('answer-finding', { ...args, assistant: assistant() }, { signal: ctx.mcpReq.signal }),
        (answer) => `Recorded ${answer.items.length} answer(s); the finding is ${answer.state}.`,
      ),
  );
  server.registerTool(
    'reveal-review',
    {
      title: 'Show the review in Redline',
      description: "Brings Redline's review panel in VS Code to the front, at a finding when one is given.",
      inputSchema: z.object({ findingId: FindingId.optional() }),
      outputSchema: RevealReviewResult,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: APP_ONLY,
    },
    (args, ctx) =>
      toolResult(
        () => bridge.request('reveal-review', { ...args, assistant: assistant() }, { signal: ctx.mcpReq.signal }),
        (result) => (result.shown ? 'The review is shown in VS Code.' : 'VS Code has no review of yours to show.'),
      ),
  );
}
