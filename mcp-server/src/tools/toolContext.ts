// What every tool is given: the bridge to VS Code, and the directory the assistant runs in.

import type { IpcClient } from '../ipcClient';

export interface ToolContext {
  readonly bridge: Pick<IpcClient, 'request' | 'onEvent'>;
  /** Sent along so that relative references resolve where the assistant runs. */
  readonly cwd: string;
}
