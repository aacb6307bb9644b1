// How the window gives each assistant's review its findings, for tests that open AssistantReviews.

import type { AssistantReview, FindingsAttachment } from '../../extension/src/review/assistantReviews';
import { FindingAnchors } from '../../extension/src/review/findingAnchors';
import { ReviewFindings } from '../../extension/src/review/reviewFindings';
import type { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { silentLogger, type Logger } from '../../shared/logger';

export function findingsAttacher(
  renderer: ReviewRenderer,
  log: Logger = silentLogger,
): (review: AssistantReview) => FindingsAttachment {
  return ({ store, conversation }) => ({
    findings: new ReviewFindings({ store, renderer, conversation, anchors: new FindingAnchors(), log }),
  });
}
