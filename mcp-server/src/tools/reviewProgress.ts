// A large present-review's progress, as MCP progress notifications to a client that gave a
// progress token: first its bytes leaving for the window (0 to 9 of 100), then the window's own
// steps (10 to 100), rendering, references resolved, shown and saved. At most ten a second, each
// higher than the last (as MCP asks), and none once closed: the tool closes it before it answers.

import type { ServerContext } from '@modelcontextprotocol/server';
import { LARGE_REVIEW_BYTES } from '../../../shared/protocol';
import { ProgressThrottle } from '../../../shared/progressThrottle';
import type { BridgeProgress } from '../pendingRequests';
import { mib } from '../../../shared/byteSize';

/** The part of a tool call's context that progress needs. */
type Request = Pick<ServerContext['mcpReq'], '_meta' | 'notify'>;

const SENDING = { from: 0, to: 9 } as const;
const WINDOW = { from: 10, to: 100 } as const;

export interface ReviewProgress {
  readonly onProgress: (progress: BridgeProgress) => void;
  /** Nothing is sent after this, not even an update waiting for its slot. */
  close(): void;
}

/** Undefined, and nothing is sent, unless the client asked for progress and the review is large. */
export function reviewProgress(request: Request, contentBytes: number): ReviewProgress | undefined {
  const progressToken = request._meta?.progressToken;
  if (progressToken === undefined || contentBytes < LARGE_REVIEW_BYTES) return undefined;
  let highest = -1;
  const throttle = new ProgressThrottle<{ progress: number; message: string }>(({ progress, message }) => {
    request
      .notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message } })
      .catch(() => undefined);
  });
  return {
    onProgress: (update) => {
      const { progress, message } = onOneScale(update);
      if (!(progress > highest)) return;
      highest = progress;
      throttle.report({ progress, message });
    },
    close: () => throttle.close(),
  };
}

function onOneScale(update: BridgeProgress): { progress: number; message: string } {
  if (update.stage === 'sending') {
    const share = update.totalBytes > 0 ? update.sentBytes / update.totalBytes : 1;
    return {
      progress: within(SENDING, share),
      message: `Sending the review to VS Code: ${mib(update.sentBytes)} of ${mib(update.totalBytes)} MiB`,
    };
  }
  // Without a total the window's step is known but not how far it is: the bar stays at its start.
  const share = update.total ? update.progress / update.total : 0;
  return { progress: within(WINDOW, share), message: `VS Code: ${update.message}` };
}

function within(range: { from: number; to: number }, share: number): number {
  const clamped = Math.min(1, Math.max(0, share));
  return Math.round((range.from + (range.to - range.from) * clamped) * 10) / 10;
}
