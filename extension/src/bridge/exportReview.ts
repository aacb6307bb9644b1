// export-review: the caller's current review as SARIF, rdjsonl or markdown, with its findings where
// their code is now and the user's answers (exchange/exportedReviewBuilder.ts), a page at a time
// (exportPages.ts). When no review is shown, the export has no findings and revision 0.

import type { ExportReviewParams, ExportReviewResult } from '../../../shared/protocol';
import type { ExportedReview } from '../../../shared/exchange/exportedReview';
import { REDLINE_VERSION } from '../../../shared/version';
import { buildExportedReview } from '../exchange/exportedReviewBuilder';
import { exportText } from '../exchange/exportFormats';
import type { ReviewRenderer } from '../render/reviewRenderer';
import type { AssistantReviews } from '../review/assistantReviews';
import { ExportPages } from './exportPages';

type ReviewsSide = Pick<AssistantReviews, 'lookup'>;

export function exportReviewHandler(reviews: ReviewsSide, renderer: Pick<ReviewRenderer, 'roots'>) {
  const pages = new ExportPages();
  const roots = (cwd: string | undefined) => renderer.roots(cwd);
  return async (params: ExportReviewParams): Promise<ExportReviewResult> => {
    if (params.cursor !== undefined) return pages.next(params.cursor, params.assistant);
    const owner = reviews.lookup(params.assistant);
    const review = (owner && (await buildExportedReview(owner, roots))) ?? nothingShown(roots(undefined)[0]);
    const { text, omitted, leftOut, withoutFile } = await exportText(review, params.format);
    const summary = {
      revision: review.revision,
      format: params.format,
      findings: review.findings.length - omitted,
      ...(omitted > 0 ? { omitted } : {}),
      ...(leftOut.length > 0 ? { leftOut: [...leftOut] } : {}),
      ...(withoutFile > 0 ? { withoutFile } : {}),
    };
    return pages.first(text, summary, params.assistant);
  };
}

/** The export of a window that shows no review: valid in every format, with nothing in it. */
function nothingShown(folder: string | undefined): ExportedReview {
  return { revision: 0, markdown: '', repositoryRoot: folder ?? '', findings: [], toolVersion: REDLINE_VERSION };
}
