// What an IPC connection is given by its server: its limits, and what it shares with the server's
// other connections (the log, the refusal log, the line parser).

import type { HelloResult } from '../../../shared/protocol';
import type { Logger } from '../../../shared/logger';
import type { OffThreadLineParser } from './lineParser';
import type { RefusalLog } from './refusalLog';
import type { RequestHandlers, RequestObserver } from './requestContract';

export interface ConnectionLimits {
  /** Bytes a peer may send before its auth is accepted. */
  readonly preAuthMaxBytes: number;
  /** How long a peer has to authenticate. */
  readonly authTimeoutMs: number;
  /** Requests one connection may have running at once; past it, they wait and reading stops. */
  readonly maxInFlight: number;
  /** Requests that may wait for a slot (those already read when reading stopped); past it, Busy. */
  readonly maxQueued: number;
  /** Overrides each method's own deadline. */
  readonly requestTimeoutMs?: number;
  /** Unsent bytes past which the connection stops reading until the peer catches up. */
  readonly writePauseBytes: number;
  /** Unsent bytes past which a peer that does not read is dropped. */
  readonly writeDropBytes: number;
}

export interface ConnectionOptions {
  readonly id: number;
  readonly token: string;
  readonly handlers: RequestHandlers;
  readonly maxLineBytes: number;
  readonly serverInfo: HelloResult['server'];
  readonly limits: ConnectionLimits;
  readonly log: Logger;
  readonly refusals: RefusalLog;
  /** Told of every request once the connection is open. */
  readonly observer?: RequestObserver;
  /** Parses lines of OFF_THREAD_LINE_BYTES or more off the window's thread: the server's, shared by its connections. */
  readonly lineParser: OffThreadLineParser;
}
