// resources/subscribe and resources/unsubscribe, and the notifications they ask for. The window
// pushes an event over IPC whenever a review, its feedback, the history or the selection changes;
// this turns each into `notifications/resources/updated` for the subscribed addresses it touches,
// and a history change into `notifications/resources/list_changed`. Events arrive only over an open
// connection, so while anything is subscribed the bridge is kept connected, and a reconnection
// (after a window reload) tells every subscriber to read again, since it may have missed a change.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EventName } from '../../../shared/protocol';
import type { ToolContext } from '../tools/toolContext';
import { CURRENT_REVIEW_URI, SELECTION_URI, earlierReviewRevision, isRedlineResource } from './resourceUris';

/** One client watches a handful of resources; past this it is a runaway loop, not a user. */
export const MAX_SUBSCRIPTIONS = 100;
/** Between attempts to get back to a window while something is subscribed. */
const RECONNECT_DELAY_MS = 2_000;

type Log = (event: string, fields?: Record<string, unknown>) => void;

export class ResourceSubscriptions {
  private readonly subscribed = new Set<string>();
  private connected = false;
  /** Set when the connection closed while something was subscribed: events may have been missed. */
  private missedEvents = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly listeners: Array<{ dispose(): void }>;

  constructor(
    private readonly server: McpServer,
    private readonly bridge: ToolContext['bridge'],
    private readonly log: Log,
  ) {
    this.listeners = [
      bridge.onEvent((event) => this.windowChanged(event)),
      bridge.onConnectionChange((connected) => this.connectionChanged(connected)),
    ];
  }

  /** Declares the capability and answers the two requests; call before the server connects. */
  register(): void {
    this.server.server.registerCapabilities({ resources: { subscribe: true } });
    this.server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
      const { uri } = request.params;
      if (!isRedlineResource(uri)) {
        throw new McpError(ErrorCode.InvalidParams, `Redline has no resource ${uri}; subscribe to one that resources/list or resources/templates/list names.`);
      }
      if (!this.subscribed.has(uri) && this.subscribed.size >= MAX_SUBSCRIPTIONS) {
        throw new McpError(ErrorCode.InvalidParams, `Already subscribed to ${MAX_SUBSCRIPTIONS} resources; unsubscribe from some first.`);
      }
      this.subscribed.add(uri);
      if (!this.connected) this.reconnect();
      return {};
    });
    this.server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.subscribed.delete(request.params.uri);
      return {};
    });
  }

  get size(): number {
    return this.subscribed.size;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    for (const listener of this.listeners) listener.dispose();
  }

  private windowChanged(event: EventName): void {
    switch (event) {
      case 'review-changed':
      case 'feedback-added':
        this.updated(CURRENT_REVIEW_URI);
        return;
      case 'selection-changed':
        this.updated(SELECTION_URI);
        return;
      case 'history-changed':
        // An earlier review never changes, but it leaves the history when the window trims it.
        for (const uri of this.subscribed) if (earlierReviewRevision(uri) !== undefined) this.updated(uri);
        this.server.sendResourceListChanged();
        return;
    }
  }

  private updated(uri: string): void {
    if (!this.subscribed.has(uri) || !this.server.isConnected()) return;
    this.server.server.sendResourceUpdated({ uri }).catch((error: unknown) => this.log('notify-failed', { uri, error: String(error) }));
  }

  private connectionChanged(connected: boolean): void {
    this.connected = connected;
    if (!connected) {
      if (this.subscribed.size > 0) {
        this.missedEvents = true;
        this.scheduleReconnect();
      }
      return;
    }
    if (this.missedEvents) {
      this.missedEvents = false;
      for (const uri of this.subscribed) this.updated(uri);
    }
  }

  private reconnect(): void {
    if (this.disposed || this.connected || this.subscribed.size === 0) return;
    this.bridge.connectNow().catch((error: unknown) => {
      this.log('subscription-reconnect-failed', { error: String((error as Error)?.message ?? error).slice(0, 300) });
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.disposed) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.reconnect();
    }, RECONNECT_DELAY_MS);
    // A subscription alone must not keep a server alive whose client has gone.
    this.reconnectTimer.unref();
  }
}
