// Renders run in worker threads, so the extension host's thread (which every extension in the
// window shares) keeps answering while a large review is parsed and written. These tests prove the
// behaviour, not the speed: the host's timer keeps ticking through a 10 MiB present-review, a
// cancel ends the worker's job at once, and a worker that dies is replaced.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { connectMcp, hostEnv, RENDER_WORKER, startHost, type Host } from './harness';
import { RenderBudgetError } from '../../extension/src/render/pageBudget';
import { RenderWorkerPool } from '../../extension/src/render/renderWorkerPool';
import { monitorThreadHolds } from '../support/threadHolds';

/** A review of `bytes` bytes: numbered findings, each with a reference into src/example.ts. */
function largeReview(bytes: number): string {
  const lines: string[] = ['# A large review', ''];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `- Finding ${i}: the value at src/example.ts:${(i % 60) + 1} is never read, and the helper that wrote it can go.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

describe('the host while a large review renders', () => {
  let host: Host;
  /** How long the host's thread was held from the moment it took the present-review up to its reply. */
  const stalls = monitorThreadHolds();

  beforeAll(async () => {
    // The test's MCP client shares this thread: sending and reading 10 MiB is its cost, not the
    // host's, so the host's stalls are sampled only while the host holds the request.
    host = await startHost({
      observer: {
        onRequestStarted: (request) => request.method === 'present-review' && stalls.enable(),
        onRequestSettled: (request) => request.method === 'present-review' && stalls.disable(),
      },
    });
  });

  afterAll(() => host.stop());

  it('keeps its thread: no stall over 250 ms through a 10 MiB present-review', async () => {
    const review = largeReview(10 * 1024 * 1024 - 4096);
    // As long as the client waits: this test bounds the host's stalls, not the present's duration.
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      const result = (await mcp.client.callTool(
        { name: 'present-review', arguments: { content: review } },
        { timeout: 120_000 },
      )) as {
        isError?: boolean;
        structuredContent?: { references?: { total: number } };
      };
      const stall = stalls.maxMs;
      console.log(`10 MiB present-review: the host's longest stall was ${stall.toFixed(0)} ms`);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent?.references?.total).toBeGreaterThan(100_000);
      expect(host.store.current?.markdown).toBe(review);
      expect(stall).toBeLessThan(250);
    } finally {
      await mcp.close();
    }
  });
});

describe('the render worker pool', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-pool-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src/example.ts'), 'export const a = 1;\n'.repeat(60));
  const job = (markdown: string) => ({ markdown, roots: [root] });

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('renders in a worker it starts when first needed, and reuses it; a small render stays on this thread', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER, { inThreadBelow: 1024 });
    try {
      await expect(pool.render(job('# Small\n\nsrc/example.ts:2'))).resolves.toMatchObject({
        references: { total: 1, resolved: 1 },
      });
      expect(pool.started).toBe(0);
      const first = await pool.render(job(`# One\n\nSee src/example.ts:3\n\n${'Some prose. '.repeat(100)}`));
      expect(first.references).toMatchObject({ total: 1, resolved: 1 });
      expect(first.html).toContain('data-ref="src/example.ts:3"');
      await pool.render(job(`# Two\n\n${'Some prose. '.repeat(100)}`));
      expect(pool.started).toBe(1);
    } finally {
      await pool.dispose();
    }
  });

  it('sends a long page slice by slice as the worker writes it, ending as the render it answers with', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER);
    try {
      const markdown = largeReview(1024 * 1024);
      const slices: string[] = [];
      let answered = false;
      const rendering = pool.render(job(markdown), {
        onSlice: (html) => slices.push(answered ? 'after the answer' : html),
      });
      const streamed = await rendering.finally(() => (answered = true));
      expect(slices.length).toBeGreaterThan(2);
      expect(slices.join('')).toBe(streamed.html);
      const plain = await pool.render(job(markdown));
      expect({ ...streamed, html: streamed.html.length }).toEqual({ ...plain, html: plain.html.length });
      expect(streamed.html).toBe(plain.html);
    } finally {
      await pool.dispose();
    }
  });

  it('warm() starts a worker ahead of need, which the next render uses', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER);
    try {
      pool.warm();
      pool.warm();
      expect(pool.started).toBe(1);
      await expect(pool.render(job(largeReview(64 * 1024)))).resolves.toMatchObject({
        references: { total: expect.any(Number) },
      });
      expect(pool.started).toBe(1);
    } finally {
      await pool.dispose();
    }
  });

  it('a cancel ends the job at once, by ending its worker; the next render starts another', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER);
    try {
      const controller = new AbortController();
      const steps: string[] = [];
      let cancelled = 0;
      const rendering = pool.render(job(largeReview(5 * 1024 * 1024)), {
        signal: controller.signal,
        onProgress: (step) => {
          steps.push(step.step);
          // Mid-render: once the worker has said it is working on it.
          if (cancelled === 0) {
            cancelled = Date.now();
            controller.abort(new Error('cancelled by the assistant'));
          }
        },
      });
      await expect(rendering).rejects.toThrow('cancelled by the assistant');
      const tookMs = Date.now() - cancelled;
      console.log(
        `cancel during a 5 MiB render took effect in ${tookMs} ms (steps reached: ${steps.join(', ') || 'none'})`,
      );
      expect(tookMs).toBeLessThan(1000);
      expect(steps).not.toContain('writing');

      await expect(pool.render(job(largeReview(64 * 1024)))).resolves.toMatchObject({
        references: { total: expect.any(Number) },
      });
      expect(pool.started).toBe(2);
    } finally {
      await pool.dispose();
    }
  });

  it('a worker that runs out of memory refuses its review as too large, with what to do, and is replaced', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER, { maxHeapMb: 48 });
    try {
      await expect(pool.render(job(largeReview(8 * 1024 * 1024)))).rejects.toThrow(
        new RenderBudgetError(
          'The review needs more memory to render than Redline allows, so it was not shown. Split it into smaller reviews (mode "append").',
        ),
      );
      await expect(pool.render(job(largeReview(64 * 1024)))).resolves.toMatchObject({
        references: { total: expect.any(Number) },
      });
      expect(pool.started).toBe(2);
    } finally {
      await pool.dispose();
    }
  });

  it('a second render waits for a free worker when both are busy, and a cancel while it waits leaves the rest alone', async () => {
    const pool = new RenderWorkerPool(RENDER_WORKER, { size: 1 });
    try {
      const first = pool.render(job(largeReview(512 * 1024)));
      const controller = new AbortController();
      const second = pool.render(job(largeReview(64 * 1024)), { signal: controller.signal });
      controller.abort(new Error('not wanted'));
      await expect(second).rejects.toThrow('not wanted');
      await expect(first).resolves.toMatchObject({ references: { total: expect.any(Number) } });
      await expect(pool.render(job(largeReview(64 * 1024)))).resolves.toBeDefined();
      expect(pool.started).toBe(1);
    } finally {
      await pool.dispose();
    }
  });
});
