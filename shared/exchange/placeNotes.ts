// What an imported review says about where each result's place was found: a line ending an item
// whose place is not where the log said (or was not found), and one note at the end that counts
// the results by how each place was found (shared/exchange/pathMapping.ts has the rules). Paths
// are quoted as words, so that the renderer reads no reference in a note.

import type { PlaceHow } from '../protocol';
import { formatCount } from '../reviewBudget';
import { visibleControls } from '../plainText';
import { escapeInline } from './importedReviewWriter';
import type { MappedPath } from './pathMapping';
import type { LogRoot } from './sarifPlaces';

/** The item's note on its place, as markdown of one line; undefined when it is where the log said. */
export function placeNote(logPath: string, mapped: MappedPath): string | undefined {
  const named = `the log names ${quoted(logPath)}`;
  if (!mapped.found) {
    return mapped.why === 'ambiguous'
      ? `_Place not found: ${named}, and ${mapped.count ?? 'several'} files in the workspace end in ${quoted(mapped.suffix ?? '')}, so none was chosen._`
      : `_Place not found: ${named}, and no file in the workspace has this path or ends as it does._`;
  }
  switch (mapped.how) {
    case 'as-written':
      return undefined;
    case 'suffix':
      return `_Place: ${named}; this is the one file in the workspace whose path ends in ${quoted(mapped.suffix ?? '')}._`;
    case 'same-prefix':
      return `_Place: ${named}; found under the folder the log's other paths lead to (${prefixText(mapped)})._`;
    case 'located':
      return `_Place: ${named}; found through the folder you located (${prefixText(mapped)})._`;
  }
}

function prefixText(mapped: Extract<MappedPath, { found: true }>): string {
  return mapped.prefix === undefined
    ? 'the same folder'
    : `${quoted(mapped.prefix.from)} is ${quoted(mapped.prefix.to)} here`;
}

/**
 * A path in quotes, as words: not a code span, which the renderer would take for a reference (and,
 * for a path that is not here, call broken). Its control characters are shown as escapes.
 */
function quoted(path: string): string {
  return `“${escapeInline(visibleControls(path))}”`;
}

const HOW_WORDS: Record<PlaceHow, (n: string) => string> = {
  'as-written': (n) => `${n} as the log wrote them`,
  'log-root': (n) => `${n} under the log's own root (its SRCROOT or the folder the tool ran in)`,
  located: (n) => `${n} through a folder you located`,
  suffix: (n) => `${n} by the end of their path, which only one file in the workspace has`,
  'same-prefix': (n) => `${n} under the folder the log's other paths lead to`,
  'not-found': (n) => `${n} not found in the workspace`,
  ambiguous: (n) => `${n} not found: the end of their path names several files`,
  'no-file': (n) => `${n} name no file`,
};

/** "How the places were found: 3 as the log wrote them; 869 by the end of their path, …". */
export function placesSummary(counts: Readonly<Record<PlaceHow, number>>, listingCut: boolean): string | undefined {
  const parts = (Object.keys(HOW_WORDS) as PlaceHow[])
    .filter((how) => counts[how] > 0)
    .map((how) => HOW_WORDS[how](formatCount(counts[how])));
  if (parts.length === 0) return undefined;
  const cut = listingCut
    ? ' The workspace has more files than Redline lists to find them by their ends; only the first ones were compared.'
    : '';
  return `How the results' places were found: ${parts.join('; ')}.${cut}`;
}

/** How a found place is counted: through the log's own root when the path came relative to one. */
export function howOf(mapped: MappedPath, root: LogRoot | undefined): PlaceHow {
  if (!mapped.found) return mapped.why === 'ambiguous' ? 'ambiguous' : 'not-found';
  return mapped.how === 'as-written' && root !== undefined ? 'log-root' : mapped.how;
}
