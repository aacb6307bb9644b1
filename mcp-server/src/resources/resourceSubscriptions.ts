// Turns the window's change events into `notifications/resources/updated` (and, for the history,
// `list_changed`). A 2025-era client gets only what it subscribed to; a 2026-07-28 client's listen
// streams are filtered by the SDK's stdio entry, so every change is sent. Events arrive only while
// connected, so the bridge is kept connected while anything is watched, and after a reconnection
// watchers are told to read again, since they may have missed a change.

import { ProtocolError, ProtocolErrorCode, type McpServer, type ProtocolEra } from '@modelcontextprotocol/server';
import { Disposable, toDisposable } from '../../../shared/lifecycle';
import type { Logger } from '../../../shared/logger';
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

export interface SubscriptionOptions {
  readonly bridge: ToolContext['bridge'];
  readonly log: Logger;
  /** 'modern': the client's listen streams are invisible here, so everything counts as watched. */
  readonly era?: ProtocolEra;
  /** The client's assistant name: only its own review's events become notifications. */
  readonly assistant?: () => string | undefined;
}

export class ResourceSubscriptions extends Disposable {
  private readonly subscribed = new Set<string>();
  private connected = false;
  /** Set when the connection closed while something was subscribed: events may have been missed. */
  private missedEvents = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failing = false;
  private readonly bridge: ToolContext['bridge'];
  private readonly log: Logger;
  private readonly era: ProtocolEra;

  constructor(
    private readonly server: McpServer,
    { bridge, log, era = 'legacy', assistant = () => undefined }: SubscriptionOptions,
  ) {
    super();
    this.bridge = bridge;
    this.log = log;
    this.era = era;
    this.register(
      bridge.onEvent((event, payload) => reviewEventIsFor(payload, assistant()) && this.windowChanged(event)),
    );
    this.register(bridge.onConnectionChange((connected) => this.connectionChanged(connected)));
    this.register(toDisposable(() => clearTimeout(this.reconnectTimer)));
  }

  /** Declares the capability and answers the two requests; call before the server connects. */
  install(): void {
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
      .catch((error: unknown) => this.log.warn('notify-failed', { uri, error }));
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
    if (this.isDisposed || this.connected || !this.watching) return;
    // A change made before the connection is up is not heard: once it is, watchers read again.
    this.missedEvents = true;
    this.bridge.connectNow().then(
      () => (this.failing = false),
      (error: unknown) => {
        // Routine: with no window open there is nothing to hear, and a call made meanwhile says so.
        // Once per run of failures, or a retry every two seconds would fill the log.
        if (!this.failing && !this.isDisposed)
          this.log.debug('subscription-reconnect-failed', {
            error: String((error as Error)?.message ?? error).slice(0, 300),
          });
        this.failing = true;
        this.scheduleReconnect();
      },
    );
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.isDisposed) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.reconnect();
    }, RECONNECT_DELAY_MS);
    // A subscription alone must not keep a server alive whose client has gone.
    this.reconnectTimer.unref();
  }
}
