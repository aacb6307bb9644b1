// The review's view as resources/read gives it: one HTML document with its script and style inline,
// built by scripts/build.mjs into dist/review-view.html (mcp-server/view/), and a content security
// policy that lets it reach nothing outside it.

import * as fs from 'fs';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { REVIEW_VIEW_URI, VIEW_MIME_TYPE } from './uiExtension';

/** The view's file, beside the full server in dist/. */
export const VIEW_FILE = 'review-view.html';

/** No origin for connections, scripts, styles, images, fonts or frames: everything is in the document. */
export const VIEW_RESOURCE_META = {
  ui: {
    csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
    prefersBorder: true,
  },
};

export function reviewViewContents(html: string): ReadResourceResult {
  return { contents: [{ uri: REVIEW_VIEW_URI, mimeType: VIEW_MIME_TYPE, text: html, _meta: VIEW_RESOURCE_META }] };
}

/** Reads `file` on the first call and keeps it: it changes only with the build. */
export function viewFileReader(file: string): () => string {
  let html: string | undefined;
  return () => (html ??= fs.readFileSync(file, 'utf8'));
}
