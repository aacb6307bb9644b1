// A window's host in a process of its own (bundled and forked by windowHost.ts), so that a test
// can SIGKILL it the way a crashed extension host dies: no dispose, its socket and discovery files left behind.

import { createToken } from '../../extension/src/ipc/token';
import { socketLocation } from '../../extension/src/ipc/socketLocation';
import { startHost } from '../integration/harness';
import { publishWindow } from './windowDiscovery';

export interface ChildHostOptions {
  readonly token: string;
  /** The workspace folder in its discovery file. */
  readonly folder: string;
}

export type ChildHostMessage =
  | { readonly type: 'ready'; readonly socketPath: string; readonly discoveryFile: string }
  | { readonly type: 'selection-requested' };

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as ChildHostOptions;
  const send = (message: ChildHostMessage) => process.send?.(message);
  const location = socketLocation(createToken().slice(0, 12));
  const host = await startHost({ socketPath: location.path, token: options.token });
  const discoveryFile = publishWindow(location, options.token, [options.folder]);
  // get-selection never finishes here: it is the request that is in flight when the host dies.
  host.editor.getSelection = () => {
    send({ type: 'selection-requested' });
    return new Promise(() => undefined);
  };
  // A test that fails half-way must not leave a host listening: go when the parent goes.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', socketPath: location.path, discoveryFile });
}

// Only when run as the child, not when a test imports the types.
if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`host process failed: ${String(error)}\n`);
    process.exit(1);
  });
}
