// A SARIF result's message as markdown: the markdown form when the log has one, else the text;
// looked up in the rule's or the tool's message strings when the result gives only an id; with its
// `{0}` placeholders filled from the arguments and `{{`/`}}` read as braces, as SARIF §3.11.5 says.

import type { SarifMessage, SarifRule, SarifToolComponent } from './sarifShape';

/** SARIF doubles braces in every message string, placeholders or not; writers double them too. */
export const escapeBraces = (text: string): string => text.replace(/[{}]/g, (brace) => brace + brace);

export function messageMarkdown(message: SarifMessage, rule: SarifRule | undefined, tool: SarifToolComponent): string {
  const looked =
    message.id === undefined
      ? undefined
      : (rule?.messageStrings?.[message.id] ?? tool.globalMessageStrings?.[message.id]);
  const markdown = message.markdown ?? looked?.markdown;
  if (markdown !== undefined) return fillPlaceholders(markdown, message.arguments);
  const text = message.text ?? looked?.text;
  if (text === undefined) return '';
  return plainLinks(fillPlaceholders(text, message.arguments));
}

/** `{0}` → arguments[0]; `{{` → `{`. A placeholder without its argument stays as written. */
function fillPlaceholders(text: string, args: readonly string[] | undefined): string {
  return text.replace(/\{\{|\}\}|\{(\d{1,4})\}/g, (whole, index: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = args?.[Number(index)];
    return value === undefined ? whole : value;
  });
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
