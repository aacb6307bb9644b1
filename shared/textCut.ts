// A text cut to a length for a summary, with an ellipsis, never between the halves of a surrogate pair.

/** `text` when it is at most `max` UTF-16 units long; otherwise its start and "…", `max` units at most. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 2);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}
