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
  /** What else the format left out, and why, each a sentence. */
  readonly leftOut: readonly string[];
  /** Results of an imported log exported without a file of the workspace (where the log put them). */
  readonly withoutFile: number;
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
      const { log, omitted, withoutFile } = toSarif(review);
      // The findings' markdown, and the review's, may run to megabytes: escaped a slice per task.
      return { text: `${(await jsonInSlices(log)).join('')}\n`, omitted, leftOut: [], withoutFile };
    }
    case 'rdjsonl': {
      const unplaced = review.unplaced?.length ?? 0;
      const leftOut =
        unplaced > 0
          ? [
              `${unplaced} results of the imported log name no file in the workspace; reviewdog needs a file for each, so they are left out (the SARIF export keeps them).`,
            ]
          : [];
      return { text: toRdjsonl(review), omitted: 0, leftOut, withoutFile: 0 };
    }
    case 'markdown':
      return { text: toMarkdown(review), omitted: 0, leftOut: [], withoutFile: 0 };
  }
}
