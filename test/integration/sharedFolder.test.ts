// Two windows on one workspace share its storage folder: two code-server tabs, or a reloaded
// window while its old host finishes. Each runs here as a process of its own, presenting and
// taking feedback at the same time; afterwards every review and every item is on disk, and no
// id is given twice.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Conversation } from '../../extension/src/review/conversation';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { StoreChild, storeChildren } from './storeChild';

const work = storeChildren();

it('two windows presenting and adding feedback at once lose nothing', async () => {
  const root = fs.mkdtempSync(path.join(work, 'storage-'));
  const folders = {
    reviews: path.join(root, 'reviews'),
    conversation: path.join(root, 'conversation'),
    historySize: 50,
  };
  const windows = await Promise.all([StoreChild.start(folders), StoreChild.start(folders)]);
  const rounds = 10;
  const ids: number[] = [];
  await Promise.all(
    windows.flatMap((window, w) =>
      Array.from({ length: rounds }, async (_, i) => {
        // Spread out a little, so that the two windows' writes interleave rather than one going first.
        await new Promise((resolve) => setTimeout(resolve, i * 7 + w * 3));
        await window.present({ content: `# Window ${w} review ${i}`, mode: 'replace' });
        ids.push(await window.say(`window ${w} says ${i}`));
      }),
    ),
  );
  await Promise.all(windows.map((window) => window.close()));

  const warnings: string[] = [];
  const store = await ReviewStore.open({
    directory: folders.reviews,
    historySize: 50,
    log: (message) => warnings.push(message),
  });
  const history = await store.listHistory();
  const texts = [
    store.current!.markdown,
    ...(await Promise.all(history.map(async (entry) => (await store.readHistory(entry.revision))!.markdown))),
  ];
  const expected = [0, 1].flatMap((w) => Array.from({ length: rounds }, (_, i) => `# Window ${w} review ${i}`));
  expect([...texts].sort()).toEqual([...expected].sort());
  expect(new Set(history.map((entry) => entry.revision)).size).toBe(history.length);

  const conversation = await Conversation.open(folders.conversation, (message) => warnings.push(message));
  const items = conversation.since().items;
  expect(items.map((item) => item.text).sort()).toEqual(
    [0, 1].flatMap((w) => Array.from({ length: rounds }, (_, i) => `window ${w} says ${i}`)).sort(),
  );
  // The ids each window was told are the ids on disk, each given once.
  expect(items.map((item) => Number(item.id)).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  expect(fs.readdirSync(folders.reviews).filter((name) => name.startsWith('.'))).toEqual([]);
  expect(warnings).toEqual([]);
  await store.dispose();
});

it('a lock left by a window that was killed does not stop the next one', async () => {
  const root = fs.mkdtempSync(path.join(work, 'storage-'));
  const folders = { reviews: path.join(root, 'reviews') };
  const first = await StoreChild.start(folders);
  await first.present({ content: '# Before', mode: 'replace' });
  await first.kill();
  // As if it died holding the lock: its pid is gone.
  fs.writeFileSync(
    path.join(folders.reviews, '.lock'),
    JSON.stringify({ pid: first.process.pid, host: os.hostname(), token: 'dead' }),
  );
  const store = await ReviewStore.open({ directory: folders.reviews, historySize: 5 });
  await store.present({ content: '# After', mode: 'replace' });
  expect((await ReviewStore.open({ directory: folders.reviews, historySize: 5 })).current?.markdown).toBe('# After');
  expect(fs.existsSync(path.join(folders.reviews, '.lock'))).toBe(false);
  await store.dispose();
});
