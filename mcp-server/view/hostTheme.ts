// The host's theme: light or dark, and the style variables of the MCP Apps specification that the
// view's stylesheet reads. Only those, and only values that load nothing: the view reaches no origin.

import { applyDocumentTheme, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/** The variables view.css uses; each has a fallback there that meets 4.5:1 in both themes. */
const USED = /^--(color-(background|text|border|ring)-[a-z]+|font-(sans|mono)|border-radius-[a-z]+)$/;
/** A value that would fetch something, or end the declaration it is set in. */
const UNSAFE = /url\(|image-set\(|@import|[;{}<]|\\/i;

export function applyHostTheme(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme === 'light' || context.theme === 'dark') applyDocumentTheme(context.theme);
  const variables = context.styles?.variables;
  if (!variables) return;
  const style = document.documentElement.style;
  for (const [name, value] of Object.entries(variables)) {
    if (typeof value !== 'string' || !USED.test(name) || UNSAFE.test(value) || value.length > 500) continue;
    style.setProperty(name, value);
  }
}
