// A window's review store in a process of its own (bundled and forked by storeCrash.test.ts), so a
// test can SIGKILL it the moment a present-review has been answered, as a crashed host dies.

import { ReviewStore, type PresentRequest } from '../../extension/src/review/reviewStore';

export type StoreProcessRequest = { readonly type: 'present'; readonly id: number; readonly request: PresentRequest };
export type StoreProcessMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly revision: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

async function main(): Promise<void> {
  const directory = process.argv[2];
  const send = (message: StoreProcessMessage) => process.send?.(message);
  const store = await ReviewStore.open({ directory, historySize: 5, log: (message) => process.stderr.write(`${message}\n`) });
  process.on('message', (message: StoreProcessRequest) => {
    // Answered only once the store says the change is durable, as the IPC bridge does.
    store.present(message.request).then(
      (review) => send({ type: 'done', id: message.id, revision: review.revision }),
      (error: Error) => send({ type: 'failed', id: message.id, message: error.message }),
    );
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`store process failed: ${String(error)}\n`);
    process.exit(1);
  });
}
