// The whole review, read page by page: for those that take it in one piece, the command line's
// get-review and export (its stdout has no line limit) and the current-review resources.

import type { ExportReviewResult, GetReviewParams, GetReviewResult } from '../../shared/protocol';

/**
 * Follows nextCursor to the last page and joins the pages: the markdown, the headings and the
 * findings of all of them, with neither `page` nor `nextCursor`. The window refuses a cursor of an
 * earlier revision, so a review that changes meanwhile fails the read rather than mixing two.
 */
export async function readWholeReview(
  readPage: (params: Pick<GetReviewParams, 'cursor'>) => Promise<GetReviewResult>,
): Promise<GetReviewResult> {
  const first = await readPage({});
  const markdown = [first.markdown];
  const sections = [...first.sections];
  const findings = [...first.findings];
  for (let cursor = first.nextCursor; cursor !== undefined;) {
    const page = await readPage({ cursor });
    markdown.push(page.markdown);
    for (const section of page.sections) sections.push(section);
    for (const finding of page.findings) findings.push(finding);
    cursor = page.nextCursor;
  }
  const { page: _page, nextCursor: _next, ...rest } = first;
  return { ...rest, markdown: markdown.join(''), sections, findings };
}

/** Follows nextCursor to the last page; every page is of the one export the window holds. */
export async function readWholeExport(
  readPage: (cursor: string | undefined) => Promise<ExportReviewResult>,
): Promise<ExportReviewResult> {
  const first = await readPage(undefined);
  const parts = [first.text];
  for (let cursor = first.nextCursor; cursor !== undefined;) {
    const page = await readPage(cursor);
    parts.push(page.text);
    cursor = page.nextCursor;
  }
  const { nextCursor: _next, ...rest } = first;
  return { ...rest, text: parts.join('') };
}
