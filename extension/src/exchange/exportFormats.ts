// The text of an export in the format asked for, from the review as it leaves the window. The
// writers are pure (shared/exchange/); this only picks one and turns SARIF's object into its file.

import type { ExportFormat } from '../../../shared/protocol';
import type { ExportedReview } from '../../../shared/exchange/exportedReview';
import { toMarkdown } from '../../../shared/exchange/markdownExport';
import { toRdjsonl } from '../../../shared/exchange/rdjsonl';
import { toSarif } from '../../../shared/exchange/sarifExport';
import { jsonInSlices } from '../../../shared/jsonInSlices';

export interface ExportText {
  readonly text: string;
  /** Findings the format's limits left out (SARIF's results per run). */
  readonly omitted: number;
}

/** What a file of each format is called, for a save dialog. */
export const FORMAT_FILES: Record<
  ExportFormat,
  { readonly extension: string; readonly name: string; readonly label: string }
> = {
  sarif: { extension: 'sarif', name: 'SARIF', label: 'SARIF 2.1.0 (code scanning, SARIF viewers)' },
  rdjsonl: { extension: 'rdjsonl', name: 'rdjsonl', label: 'rdjsonl (reviewdog)' },
  markdown: { extension: 'md', name: 'markdown', label: 'Markdown' },
};

export async function exportText(review: ExportedReview, format: ExportFormat): Promise<ExportText> {
  switch (format) {
    case 'sarif': {
      const { log, omitted } = toSarif(review);
      // The findings' markdown, and the review's, may run to megabytes: escaped a slice per task.
      return { text: `${(await jsonInSlices(log)).join('')}\n`, omitted };
    }
    case 'rdjsonl':
      return { text: toRdjsonl(review), omitted: 0 };
    case 'markdown':
      return { text: toMarkdown(review), omitted: 0 };
  }
}
