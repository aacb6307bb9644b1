// What the webview takes from its host: a message of a type it knows. The fields are not checked
// again here: the host writes them to the types in webviewMessages.ts, and whatever else could post
// into this window already runs script in it, so a check would stop nothing. Kept free of zod,
// which would grow the webview's bundle several times over.

import type { HostToWebviewMessage } from '../src/panel/webviewMessages';

/** Every type the host posts; a type added to the protocol and missing here is a compile error. */
const HOST_MESSAGE_TYPES: Readonly<Record<HostToWebviewMessage['type'], true>> = {
  render: true,
  slice: true,
  append: true,
  empty: true,
  copied: true,
  copyFailed: true,
  findings: true,
  showFinding: true,
  messageResult: true,
  history: true,
  comparison: true,
  tabs: true,
};

/** `data` as a host message, or `undefined` when it is not one (another page's message, a stray value). */
export function asHostMessage(data: unknown): HostToWebviewMessage | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const type: unknown = (data as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(HOST_MESSAGE_TYPES, type)
    ? (data as HostToWebviewMessage)
    : undefined;
}
