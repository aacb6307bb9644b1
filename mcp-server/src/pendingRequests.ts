// The requests sent to the window and not yet answered, by their UUID: each one's timer, its
// result schema, its progress listener and the connection it went out on. A reply, a timeout, a
// cancel or a closed connection takes a request out of the table exactly once, so a late reply to
// a request already given up on is dropped, and a close fails only the requests of its own socket.

import type * as net from 'net';
import type { ZodType } from 'zod';
import { encodeLine } from '../../shared/framing';
import type { Logger } from '../../shared/logger';
import { ErrorCode, IpcError, describeIssues, type ProgressUpdate, type ResponseMessage } from '../../shared/protocol';

/** How far a request has come: its bytes leaving for the window, then the window's own reports. */
export type BridgeProgress =
  | { readonly stage: 'sending'; readonly sentBytes: number; readonly totalBytes: number }
  | ({ readonly stage: 'window' } & ProgressUpdate);

export interface PendingRequest {
  readonly id: string;
  readonly method: string;
  readonly resultSchema: ZodType;
  readonly timeoutMs: number;
  /** The connection it went out on. */
  readonly socket: net.Socket;
  readonly onProgress: ((progress: BridgeProgress) => void) | undefined;
}

interface Entry extends PendingRequest {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class PendingRequests {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly log: Logger) {}

  get size(): number {
    return this.entries.size;
  }

  /** Resolves with the request's checked result; rejects with its error, its timeout or its end. */
  track(request: PendingRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const message = `VS Code did not answer ${request.method} within ${request.timeoutMs} ms. Is the window busy? Try again.`;
        this.abandon(request.id, new IpcError(ErrorCode.Timeout, message));
      }, request.timeoutMs);
      this.entries.set(request.id, { ...request, resolve, reject, timer });
    });
  }

  /** Gives up on a request: rejects it here and tells the window to stop working on it. */
  abandon(id: string, error: Error): void {
    const entry = this.take(id);
    if (!entry) return;
    entry.reject(error);
    if (!entry.socket.destroyed) entry.socket.write(encodeLine({ type: 'cancel', id }));
  }

  /** Settles the request a reply is for; a reply to one no longer waited for is dropped. */
  settle(id: string, reply: ResponseMessage): void {
    const entry = this.take(id);
    if (!entry) return;
    if ('error' in reply) {
      entry.reject(new IpcError(reply.error.code as ErrorCode, reply.error.message));
      return;
    }
    const result = entry.resultSchema.safeParse(reply.result);
    if (result.success) entry.resolve(result.data);
    else
      entry.reject(
        new IpcError(
          ErrorCode.InvalidMessage,
          `VS Code sent a malformed ${entry.method} reply: ${describeIssues(result.error)}`,
        ),
      );
  }

  /** Only for a request still waited for on that socket: any other id is ignored. */
  progress(id: string, socket: net.Socket, progress: BridgeProgress): void {
    const entry = this.entries.get(id);
    if (entry?.socket !== socket || !entry.onProgress) return;
    try {
      entry.onProgress(progress);
    } catch (error) {
      this.log.warn('progress-listener-failed', { id, error });
    }
  }

  /** Fails every request, or only those that went out on `onlySocket`. */
  failAll(error: Error, onlySocket?: net.Socket): void {
    for (const [id, entry] of [...this.entries]) {
      if (!onlySocket || entry.socket === onlySocket) this.take(id)?.reject(error);
    }
  }

  private take(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    clearTimeout(entry.timer);
    return entry;
  }
}
