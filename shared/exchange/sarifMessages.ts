// A SARIF result's message as markdown: the markdown form when the log has one, else the text;
// looked up in the rule's or the tool's message strings when the result gives only an id; with its
// `{0}` placeholders filled from the arguments and `{{`/`}}` read as braces, as SARIF §3.11.5 says.
// The filling stops at MAX_MESSAGE_CHARS as it goes: a placeholder repeated with a long argument
// never makes a message larger than that, however many times it repeats.

import { messageStringOf, type SarifMessage, type SarifRule, type SarifToolComponent } from './sarifShape';

/** A message longer than this, once filled, is cut: no finding needs more, and a log can ask for far more. */
export const MAX_MESSAGE_CHARS = 32 * 1024;

/** SARIF doubles braces in every message string, placeholders or not; writers double them too. */
export const escapeBraces = (text: string): string => text.replace(/[{}]/g, (brace) => brace + brace);

/** A message in both of SARIF's forms, filled and cut; `cut` says whether anything was left out. */
export interface FilledMessage {
  readonly text?: string;
  readonly markdown?: string;
  readonly cut: boolean;
}

/** The message's text and markdown forms, looked up by id when the result gives one, filled and cut. */
export function filledMessage(
  message: SarifMessage,
  rule: SarifRule | undefined,
  tool: SarifToolComponent,
): FilledMessage {
  const looked =
    message.id === undefined
      ? undefined
      : (messageStringOf(rule?.messageStrings, message.id) ?? messageStringOf(tool.globalMessageStrings, message.id));
  const markdownSource = message.markdown ?? looked?.markdown;
  const textSource = message.text ?? looked?.text;
  const markdown = markdownSource === undefined ? undefined : fillPlaceholders(markdownSource, message.arguments);
  const text = textSource === undefined ? undefined : fillPlaceholders(textSource, message.arguments);
  return {
    ...(text !== undefined ? { text: text.value } : {}),
    ...(markdown !== undefined ? { markdown: markdown.value } : {}),
    cut: Boolean(text?.cut || markdown?.cut),
  };
}

/** The message as the review shows it: the markdown form, else the text with its links to related locations as words. */
export function messageMarkdown(filled: FilledMessage): string {
  if (filled.markdown !== undefined) return withCutNote(filled.markdown, filled.cut);
  if (filled.text === undefined) return '';
  return withCutNote(plainLinks(filled.text), filled.cut);
}

const withCutNote = (text: string, cut: boolean): string =>
  cut ? `${text}… (cut at ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters)` : text;

/**
 * `{0}` → arguments[0]; `{{` → `{`. A placeholder without its argument stays as written. Written a
 * piece at a time, and stopped once the result reaches MAX_MESSAGE_CHARS.
 */
function fillPlaceholders(template: string, args: readonly string[] | undefined): { value: string; cut: boolean } {
  const pattern = /\{\{|\}\}|\{(\d{1,4})\}/g;
  const parts: string[] = [];
  let length = 0;
  let from = 0;
  const add = (piece: string): boolean => {
    const room = MAX_MESSAGE_CHARS - length;
    if (piece.length > room) {
      parts.push(piece.slice(0, room));
      length = MAX_MESSAGE_CHARS;
      return false;
    }
    parts.push(piece);
    length += piece.length;
    return true;
  };
  for (let match = pattern.exec(template); match !== null; match = pattern.exec(template)) {
    if (!add(template.slice(from, match.index))) return { value: parts.join(''), cut: true };
    const [whole, index] = match;
    const value = whole === '{{' ? '{' : whole === '}}' ? '}' : (args?.[Number(index)] ?? whole);
    if (!add(value)) return { value: parts.join(''), cut: true };
    from = pattern.lastIndex;
  }
  const complete = add(template.slice(from));
  return { value: parts.join(''), cut: !complete };
}

/**
 * A plain-text message's embedded links (§3.11.6), `[the sink](1)`, point at the result's related
 * locations by number, which the import leaves out: the words stay, the link goes. Links to URIs stay.
 */
function plainLinks(text: string): string {
  return text.replace(/(?<!\\)\[((?:[^[\]\\\n]|\\.){0,1000})\]\((\d{1,9})\)/g, (_whole, words: string) =>
    words.replace(/\\([[\]])/g, '$1'),
  );
}
