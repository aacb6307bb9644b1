// Text from outside (a log's tool name, a path, an error that quotes a file) made plain before it is
// shown where it could do more than be read: on one line, without the control characters that move
// a terminal's cursor, change its colours or reorder what is shown (ESC, C1, bidi overrides).

/** C0 and C1 controls, line and paragraph separators, and bidi overrides and isolates. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** As CONTROLS, but keeping the newline and tab a message is written with. */
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character but newlines and tabs taken out (for a terminal). */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, '');
}

/** `text` on one line of at most `max` characters: controls taken out, whitespace runs made one space. */
export function oneLine(text: string, max: number): string {
  const line = text
    .slice(0, max * 4)
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Whether `text` holds a control character that would change what a line shows. */
export function hasControls(text: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text);
}

/** `text` with each control character written as its URI escape (`%0A`), so a path shows what it holds. */
export function visibleControls(text: string): string {
  return text.replace(CONTROLS, (char) => encodeURIComponent(char));
}
