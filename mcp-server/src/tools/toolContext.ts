// What every tool is given: the bridge to VS Code, and the directory the assistant runs in; and the
// bridge as a tool uses it, which names the calling assistant with each request.

import { toDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
import { MAX_ASSISTANT_CHARS, reviewEventIsFor } from '../../../shared/protocol';
import type { IpcClient } from '../ipcClient';

export interface ToolContext {
  readonly bridge: Pick<IpcClient, 'request' | 'onEvent' | 'onConnectionChange' | 'connectNow' | 'reachedWindow'>;
  /** Sent along so that relative references resolve where the assistant runs. */
  readonly cwd: string;
  /** The MCP clientInfo name the client gave, once it has (clientName.ts). */
  readonly clientName?: () => string | undefined;
  /** The server's logger; each part logs under a component of its own. */
  readonly log: Logger;
  /** The review's view for chats that render it (appView/); absent where it is not built. */
  readonly viewHtml?: () => string;
}

/**
 * The calling assistant's name (MCP clientInfo), sent with every call about a review: each
 * assistant has its own review in the window. Cut to what the protocol allows.
 */
export function assistantOf(context: ToolContext): string | undefined {
  const name = context.clientName?.()?.trim();
  return name ? name.slice(0, MAX_ASSISTANT_CHARS) : undefined;
}

/**
 * The bridge for one server's tools: each request carries the calling assistant's name, which the
 * window shows beside the call in its Activity view. Read at each call, since it is known only once
 * the client has sent its first request.
 */
export function bridgeFor(context: ToolContext): Pick<ToolContext['bridge'], 'request' | 'onEvent'> {
  return {
    request: (method, params, options) =>
      context.bridge.request(method, params, { ...options, client: assistantOf(context) }),
    // Another assistant's review changing is not this one's news; the selection, which names no owner, is everyone's.
    onEvent: (listener) =>
      context.bridge.onEvent(
        (event, payload) => reviewEventIsFor(payload, assistantOf(context)) && listener(event, payload),
      ),
  };
}

/** A bridge that reaches no window: for building the server to ask it what it publishes. */
export function unreachableBridge(reason: string): ToolContext['bridge'] {
  const none = toDisposable(() => undefined);
  return {
    request: () => Promise.reject(new Error(reason)),
    onEvent: () => none,
    onConnectionChange: () => none,
    connectNow: () => Promise.reject(new Error(reason)),
    reachedWindow: undefined,
  };
}
