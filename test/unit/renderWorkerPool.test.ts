// The render worker pool's queue, with a worker that takes every job and never answers: whatever
// waits behind it settles when the pool shuts down, and a cancel only ever removes its own render.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RenderWorkerError, RenderWorkerPool } from '../../extension/src/render/renderWorkerPool';
import { settlement, until } from '../support/until';

let dir: string;
let script: string;
const pools: RenderWorkerPool[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-pool-queue-'));
  script = path.join(dir, 'busyWorker.js');
  fs.writeFileSync(script, "require('worker_threads').parentPort.on('message', () => undefined);\n");
});
afterEach(() => Promise.all(pools.splice(0).map((pool) => pool.dispose())));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pool of one worker, and markdown large enough to go to it. */
function busyPool(): RenderWorkerPool {
  const pool = new RenderWorkerPool(script, { size: 1, inThreadBelow: 0 });
  pools.push(pool);
  return pool;
}
const job = { markdown: '# A review\n', roots: [] };

it('fails every render still waiting for a worker when the pool shuts down, with an error that says so', async () => {
  const pool = busyPool();
  const running = settlement(pool.render(job));
  const waiting = [settlement(pool.render(job)), settlement(pool.render(job))];
  const shutDown = pool.dispose();
  await until(() => running.settled && waiting.every((render) => render.settled), 'every render to settle');
  // The dispose resolves once its worker has exited.
  await shutDown;
  expect(running.error).toBeInstanceOf(RenderWorkerError);
  for (const render of waiting) {
    expect(render.settled).toBe(true);
    expect(render.error).toBeInstanceOf(RenderWorkerError);
    expect((render.error as Error).message).toMatch(/shut down with its window.*Try again/);
  }
  await expect(pool.render(job)).rejects.toThrow(/shut down/);
});

it('a cancel after the shutdown changes nothing, and a cancel while waiting removes only its own render', async () => {
  const pool = busyPool();
  const cancels = [new AbortController(), new AbortController(), new AbortController()];
  const running = settlement(pool.render(job));
  const [first, second, third] = cancels.map((cancel) => settlement(pool.render(job, { signal: cancel.signal })));
  // The second leaves the queue: the first and third are still waiting, in order.
  cancels[1].abort(new Error('not wanted'));
  await until(() => second.settled, 'the cancelled render to settle');
  expect((second.error as Error).message).toBe('not wanted');
  expect([first.settled, third.settled]).toEqual([false, false]);
  const shutDown = pool.dispose();
  await until(() => running.settled && first.settled && third.settled, 'the other renders to settle');
  await shutDown;
  // Cancelled after they failed: no other render is touched, and nothing throws.
  cancels[0].abort(new Error('too late'));
  cancels[2].abort(new Error('too late'));
  expect([first.error, third.error].map((error) => (error as Error).message)).toEqual([
    expect.stringMatching(/shut down/),
    expect.stringMatching(/shut down/),
  ]);
});
