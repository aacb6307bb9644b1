// import-review: a review read from a SARIF log is shown as present-review shows one (stored before
// the answer, its findings as threads and Problems entries). Each finding then gets back, through
// the conversation, the state and replies the log carries, recorded as imported (source 'import',
// with the file and the tool that wrote it), never as the user's own; and what the log was is kept
// beside the review for its export (review/importedLogFile.ts). These too are on disk before the answer.

import { TimeSlices } from '../../../shared/threadYield';
import {
  describeIssues,
  ErrorCode,
  ImportedResult,
  IpcError,
  type ImportedLog,
  type ImportedLogParams,
  type ImportReviewResult,
  type PresentReviewResult,
  type ValidParamsOf,
} from '../../../shared/protocol';
import { findingFingerprint } from '../../../shared/exchange/exportedReview';
import { importOrigin } from '../../../shared/exchange/importedLogText';
import { matchImported, type ImportMatch } from '../exchange/importMatching';
import { relativeToRoot, repositoryRoot } from '../exchange/repositoryRoot';
import type { RequestContext } from '../ipc/requestContract';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import type { Conversation } from '../review/conversation';

type Params = ValidParamsOf<'import-review'>;
type Present = (params: ValidParamsOf<'present-review'>, context: RequestContext) => Promise<PresentReviewResult>;

export function importReviewHandler(
  reviews: Pick<AssistantReviews, 'existing'>,
  renderer: Pick<ReviewRenderer, 'roots' | 'placesOf'>,
  present: Present,
) {
  return async (params: Params, context: RequestContext): Promise<ImportReviewResult> => {
    const { assistant, cwd, title, markdown } = params;
    const log = params.log === undefined ? undefined : await checkedLog(params.log, context.signal);
    const presented = await present({ content: markdown, mode: 'replace', title, cwd, assistant }, context);
    const owner = reviews.existing(assistant);
    if (!owner)
      throw new IpcError(ErrorCode.Internal, 'The imported review was shown, but its tab is gone; import it again.');
    const review = owner.store.current;
    // Another change may have come in behind the import: then only fingerprints and places match.
    const places = review?.revision === presented.revision ? await renderer.placesOf(review) : undefined;
    const reviewLines = new Map(places?.map((place) => [place.id, place.line + 1]));
    const start = renderer.roots(cwd)[0];
    const root = start ? await repositoryRoot(start) : undefined;
    const shown = await Promise.all(
      presented.findings.map(async (finding) => ({
        id: finding.id,
        file: finding.file,
        line: finding.line,
        reviewLine: reviewLines.get(finding.id),
        fingerprint: findingFingerprint(root ? await relativeToRoot(root, finding.file) : finding.file, finding.title),
      })),
    );
    const matches = matchImported(params.findings, shown);
    const references = new Map(presented.findings.map((finding) => [finding.id, finding.reference]));
    let restored: ImportReviewResult['restored'];
    try {
      const [answers] = await Promise.all([
        restoreAnswers(owner.conversation, matches, { references, log }),
        log === undefined
          ? undefined
          : owner.importedLog.save({
              version: 1,
              revision: presented.revision,
              log,
              findingIds: findingIdsOf(log, matches),
            }),
      ]);
      restored = answers;
    } catch (error) {
      throw new IpcError(
        ErrorCode.Internal,
        `The review is shown and stored, but the findings' states and replies were not all restored: ${(error as Error)?.message ?? error}`,
      );
    }
    return {
      revision: presented.revision,
      ...(presented.title !== undefined ? { title: presented.title } : {}),
      references: presented.references,
      findings: presented.findings.length,
      unmatched: params.findings.length - matches.length,
      restored,
    };
  };
}

/**
 * The log's results, each checked as it is read, the thread given a turn between slices: a
 * thousand results of a large log take zod longer than a frame. A bad one refuses the import.
 */
async function checkedLog(log: ImportedLogParams, signal: AbortSignal): Promise<ImportedLog> {
  const slices = new TimeSlices();
  const results: ImportedResult[] = [];
  for (const [index, raw] of log.results.entries()) {
    const result = ImportedResult.safeParse(raw);
    if (!result.success)
      throw new IpcError(ErrorCode.InvalidParams, `log.results[${index}]: ${describeIssues(result.error)}`);
    if (result.data.tool >= log.tools.length)
      throw new IpcError(ErrorCode.InvalidParams, `log.results[${index}].tool names no tool of the log`);
    results.push(result.data);
    await slices.yieldIfDue(signal);
  }
  return { name: log.name, tools: log.tools, results };
}

/** For each of the log's results, the finding it became here, or null. */
function findingIdsOf(log: ImportedLog, matches: readonly ImportMatch[]): Array<string | null> {
  const ids: Array<string | null> = log.results.map(() => null);
  for (const { imported, shownId } of matches) if (imported.result !== undefined) ids[imported.result] = shownId;
  return ids;
}

/**
 * Each finding's state, where it differs from what the window has for that text, and each reply it
 * does not hold already (importing the same log twice adds nothing), all recorded as imported from
 * the log and the tool that wrote the result. States go first, so that the replies are the newest
 * items and the last a conversation would let go of. All are added at once: the conversation writes
 * them together, and resolves each once it is on disk.
 */
async function restoreAnswers(
  conversation: Conversation,
  matches: readonly ImportMatch[],
  { references, log }: { references: ReadonlyMap<string, string>; log: ImportedLog | undefined },
): Promise<ImportReviewResult['restored']> {
  const saving: Array<Promise<unknown>> = [];
  const now = new Date();
  const originOf = (match: ImportMatch): string => {
    const result = match.imported.result === undefined ? undefined : log?.results[match.imported.result];
    return importOrigin(log?.name ?? 'a SARIF log', result === undefined ? undefined : log?.tools[result.tool]);
  };
  let states = 0;
  for (const match of matches) {
    const { imported, shownId } = match;
    if (conversation.stateOf(shownId) === imported.state) continue;
    states += imported.state === 'open' ? 0 : 1;
    saving.push(
      conversation.add({
        kind: 'state',
        findingId: shownId,
        state: imported.state,
        reference: references.get(shownId),
        source: 'import',
        origin: originOf(match),
      }),
    );
  }
  let replies = 0;
  for (const match of matches) {
    const { imported, shownId } = match;
    const held = new Set(conversation.repliesTo(shownId).map((item) => item.text));
    for (const reply of imported.replies) {
      if (held.has(reply.text)) continue;
      held.add(reply.text);
      replies++;
      saving.push(
        conversation.add(
          {
            kind: 'reply',
            findingId: shownId,
            text: reply.text,
            reference: references.get(shownId),
            source: 'import',
            origin: originOf(match),
          },
          writtenAt(reply.at, now),
        ),
      );
    }
  }
  await Promise.all(saving);
  return { states, replies };
}

/** When the log says a reply was written, if that is a time at all and not after the import. */
function writtenAt(at: string, now: Date): Date {
  const written = new Date(at);
  return Number.isNaN(written.getTime()) || written > now ? now : written;
}
