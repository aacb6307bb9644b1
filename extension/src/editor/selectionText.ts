// How much of each selection get-selection returns: one budget shared by all of them in order, so
// a select-all in a huge file cannot make one call carry megabytes. A cut never splits a
// surrogate pair.

import { MAX_SELECTION_TEXT } from '../../../shared/protocol';

/** A selection's text, read only as far as is needed: `read(n)` gives its first n UTF-16 units. */
export interface SelectedText {
  readonly length: number;
  read(units: number): string;
}

export interface CappedText {
  readonly text: string;
  readonly truncated?: true;
}

export function capSelectionTexts(selections: readonly SelectedText[], budget = MAX_SELECTION_TEXT): CappedText[] {
  let remaining = budget;
  return selections.map((selection) => {
    if (selection.length <= remaining) {
      remaining -= selection.length;
      return { text: selection.read(selection.length) };
    }
    const text = withoutCutPair(selection.read(remaining));
    remaining = 0;
    return { text, truncated: true };
  });
}

/** `text` without a final high surrogate, whose low half a cut left behind. */
function withoutCutPair(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
