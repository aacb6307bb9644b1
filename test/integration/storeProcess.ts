// A window's review store and conversation in a process of its own (bundled and forked by
// storeChild.ts), so a test can SIGKILL it the moment a reply has been sent, as a crashed host
// dies, or run two of them on one storage folder, as two windows on one workspace do.

import { Conversation } from '../../extension/src/review/conversation';
import { ReviewStore, type PresentRequest } from '../../extension/src/review/reviewStore';
import { stderrLogger } from '../support/loggedLines';

export interface StoreProcessFolders {
  readonly reviews: string;
  readonly conversation?: string;
  readonly historySize?: number;
}
export type StoreProcessRequest =
  | { readonly type: 'present'; readonly id: number; readonly request: PresentRequest }
  | { readonly type: 'say'; readonly id: number; readonly text: string };
export type StoreProcessMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly value: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };

async function main(): Promise<void> {
  const folders = JSON.parse(process.argv[2]) as StoreProcessFolders;
  const send = (message: StoreProcessMessage) => process.send?.(message);
  const log = stderrLogger('store-process');
  const store = await ReviewStore.open({ directory: folders.reviews, historySize: folders.historySize ?? 5, log });
  const conversation = folders.conversation ? await Conversation.open(folders.conversation, log) : undefined;
  process.on('message', (message: StoreProcessRequest) => {
    // Answered only once the change is durable, as the IPC bridge does.
    const done =
      message.type === 'present'
        ? store.present(message.request).then((review) => review.revision)
        : conversation!.add({ kind: 'message', text: message.text }).then((item) => Number(item.id));
    done.then(
      (value) => send({ type: 'done', id: message.id, value }),
      (error: Error) => send({ type: 'failed', id: message.id, message: error.message }),
    );
  });
  process.on('disconnect', () => {
    void Promise.all([store.dispose(), conversation?.flushed()]).finally(() => process.exit(0));
  });
  send({ type: 'ready' });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`store process failed: ${String(error)}\n`);
    process.exit(1);
  });
}
