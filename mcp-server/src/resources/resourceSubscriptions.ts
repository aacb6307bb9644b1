// Resource subscriptions, and the notifications they ask for. The window pushes an event over IPC
// whenever a review, its feedback, the history or the selection changes; this turns each into
// `notifications/resources/updated` for the addresses it touches, and a history change into
// `notifications/resources/list_changed`.
//
// Before 2026-07-28 a client subscribes with resources/subscribe, and only what it subscribed to is
// sent. From 2026-07-28 on it opens a subscriptions/listen stream, which the SDK's stdio entry
// (serveStdio) holds and filters: this server sends every change and the entry delivers what a
// stream asked for. Events arrive only over an open connection to the window, so while anything
// may be watched the bridge is kept connected, and a reconnection (after a window reload) tells
// every watcher to read again, since it may have missed a change.

import { ProtocolError, ProtocolErrorCode, type McpServer, type ProtocolEra } from '@modelcontextprotocol/server';
import { reviewEventIsFor, type EventName } from '../../../shared/protocol';
import type { ToolContext } from '../tools/toolContext';
import {
  CURRENT_REVIEW_SARIF_URI,
  CURRENT_REVIEW_URI,
  SELECTION_URI,
  earlierReviewRevision,
  isRedlineResource,
} from './resourceUris';

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
  private failing = false;
  private readonly listeners: Array<{ dispose(): void }>;

  constructor(
    private readonly server: McpServer,
    private readonly bridge: ToolContext['bridge'],
    private readonly log: Log,
    /** 'modern': the client's listen streams are invisible here, so everything counts as watched. */
    private readonly era: ProtocolEra = 'legacy',
    /** The client's assistant name: only its own review's events become notifications. */
    private readonly assistant: () => string | undefined = () => undefined,
  ) {
    this.listeners = [
      bridge.onEvent((event, payload) => reviewEventIsFor(payload, assistant()) && this.windowChanged(event)),
      bridge.onConnectionChange((connected) => this.connectionChanged(connected)),
    ];
  }

  /** Declares the capability and answers the two requests; call before the server connects. */
  register(): void {
    this.server.server.registerCapabilities({ resources: { subscribe: true } });
    this.server.server.setRequestHandler('resources/subscribe', (request) => {
      const { uri } = request.params;
      if (!isRedlineResource(uri)) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Redline has no resource ${uri}; subscribe to one that resources/list or resources/templates/list names.`,
        );
      }
      if (!this.subscribed.has(uri) && this.subscribed.size >= MAX_SUBSCRIPTIONS) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Already subscribed to ${MAX_SUBSCRIPTIONS} resources; unsubscribe from some first.`,
        );
      }
      this.subscribed.add(uri);
      if (!this.connected) this.reconnect();
      return {};
    });
    this.server.server.setRequestHandler('resources/unsubscribe', (request) => {
      this.subscribed.delete(request.params.uri);
      return {};
    });
    if (this.era === 'modern') this.reconnect();
  }

  private get watching(): boolean {
    return this.era === 'modern' || this.subscribed.size > 0;
  }

  private watches(uri: string): boolean {
    return this.era === 'modern' || this.subscribed.has(uri);
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
        this.updated(CURRENT_REVIEW_SARIF_URI);
        return;
      case 'selection-changed':
        this.updated(SELECTION_URI);
        return;
      case 'history-changed':
        // An earlier review never changes, but it leaves the history when the window trims it.
        for (const uri of this.subscribed) if (earlierReviewRevision(uri) !== undefined) this.updated(uri);
        if (this.server.isConnected()) this.server.sendResourceListChanged();
        return;
    }
  }

  private updated(uri: string): void {
    if (!this.watches(uri) || !this.server.isConnected()) return;
    this.server.server
      .sendResourceUpdated({ uri })
      .catch((error: unknown) => this.log('notify-failed', { uri, error: String(error) }));
  }

  private connectionChanged(connected: boolean): void {
    this.connected = connected;
    if (!connected) {
      if (this.watching) {
        this.missedEvents = true;
        this.scheduleReconnect();
      }
      return;
    }
    if (this.missedEvents) {
      this.missedEvents = false;
      for (const uri of this.era === 'modern'
        ? [CURRENT_REVIEW_URI, CURRENT_REVIEW_SARIF_URI, SELECTION_URI]
        : this.subscribed)
        this.updated(uri);
    }
  }

  private reconnect(): void {
    if (this.disposed || this.connected || !this.watching) return;
    // A change made before the connection is up is not heard: once it is, watchers read again.
    this.missedEvents = true;
    this.bridge.connectNow().then(
      () => (this.failing = false),
      (error: unknown) => {
        // Once per run of failures: with no window, a retry every two seconds would fill the log.
        if (!this.failing && !this.disposed)
          this.log('subscription-reconnect-failed', {
            error: String((error as Error)?.message ?? error).slice(0, 300),
          });
        this.failing = true;
        this.scheduleReconnect();
      },
    );
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
