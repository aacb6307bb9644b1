// Replies and states that came into a review from a file (a SARIF log), not from the user: counted,
// so that publishing asks before it posts them under the user's account, and taken out when the
// user says so. Plain TypeScript: the question is asked by publishCommand.ts.

import type { ExportedFinding, ExportedReview } from '../../../shared/exchange/exportedReview';
import { oneLine } from '../../../shared/plainText';

export interface ImportedAnswers {
  readonly replies: number;
  readonly states: number;
  /** Where they came from, as the first of them says (a file's words, made plain). */
  readonly origin?: string;
}

export function importedAnswersOf(review: ExportedReview): ImportedAnswers {
  let replies = 0;
  let states = 0;
  let origin: string | undefined;
  for (const finding of review.findings) {
    if (finding.stateOrigin !== undefined) {
      states++;
      origin ??= finding.stateOrigin;
    }
    for (const reply of finding.replies) {
      if (reply.source !== 'import') continue;
      replies++;
      origin ??= reply.origin;
    }
  }
  return { replies, states, ...(origin !== undefined ? { origin: oneLine(origin, 160) } : {}) };
}

/** The review without what a file brought in: its replies left out, its states as if never given. */
export function withoutImportedAnswers(review: ExportedReview): ExportedReview {
  return { ...review, findings: review.findings.map(withoutImported) };
}

function withoutImported(finding: ExportedFinding): ExportedFinding {
  const { stateOrigin, ...rest } = finding;
  return {
    ...rest,
    state: stateOrigin !== undefined ? 'open' : finding.state,
    replies: finding.replies.filter((reply) => reply.source !== 'import'),
  };
}

/** The question publishing asks before it posts them: what, from where, and under whose name. */
export function importedQuestion(answers: ImportedAnswers): string {
  const parts = [
    answers.replies > 0 ? `${answers.replies} ${answers.replies === 1 ? 'reply' : 'replies'}` : undefined,
    answers.states > 0 ? `${answers.states} ${answers.states === 1 ? 'state' : 'states'}` : undefined,
  ].filter((part) => part !== undefined);
  const from = answers.origin ?? 'imported from a file';
  return `${parts.join(' and ')} in this review were ${from}, not given by you. Publishing posts under your GitHub account: publish them marked as imported, or leave them out?`;
}
