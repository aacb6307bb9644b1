// The discovery file BridgeHost's WindowPublisher writes, for hosts started without `vscode`.

import * as path from 'path';
import { DISCOVERY_VERSION, discoveryFileName, writeDiscoveryFile } from '../../shared/discovery';
import type { SocketLocation } from '../../extension/src/ipc/socketLocation';

export function publishWindow(
  location: SocketLocation,
  token: string,
  folders: string[],
  lastFocused = Date.now(),
  terminals: number[] = [],
): string {
  const file = path.join(location.directory, discoveryFileName(process.pid, location.key));
  writeDiscoveryFile(file, {
    version: DISCOVERY_VERSION,
    pid: process.pid,
    folders,
    socketPath: location.path,
    token,
    editor: 'Test Editor',
    lastFocused,
    started: Date.now(),
    terminals,
  });
  return file;
}
