// The IpcClient's errors as the assistant reads them: each says what happened and what to do next.

import { ErrorCode, IPC_PATH_ENV, IPC_TOKEN_ENV, IpcError, MAX_FRAME_BYTES } from '../../shared/protocol';
import { mib } from '../../shared/byteSize';

export function describeConnectFailure(error: unknown, socketPath: string): Error {
  if (error instanceof IpcError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOENT' ? 'no VS Code window is listening there' : ((error as Error)?.message ?? String(error));
  return new IpcError(
    ErrorCode.Unreachable,
    `Cannot reach VS Code at ${socketPath} (${reason}). Is the window that started this assistant still open? ` +
      'Start the assistant from a terminal of an open VS Code window with Redline installed.',
  );
}

export function cancelled(method: string): IpcError {
  return new IpcError(ErrorCode.Cancelled, `${method} was cancelled.`);
}

export function tooLarge(method: string, bytes: number): IpcError {
  return new IpcError(
    ErrorCode.TooLarge,
    `This ${method} request is ${mib(bytes)} MiB once encoded (JSON escapes control characters as 6 bytes each), over the ` +
      `${mib(MAX_FRAME_BYTES)} MiB limit, so it was not sent. Split the review: present the first part with mode "replace" ` +
      'and send the rest in pieces with mode "append".',
  );
}

export function notConfigured(missing: string): IpcError {
  return new IpcError(
    ErrorCode.NotConfigured,
    `Redline is not connected to a VS Code window: ${missing} is not set. Run your assistant in an integrated ` +
      `terminal of a VS Code window that has the Redline extension installed, or set ${IPC_PATH_ENV} and ` +
      `${IPC_TOKEN_ENV} (run "Redline: Show Connection Info" in VS Code to see them).`,
  );
}
