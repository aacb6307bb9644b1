// An assistant that connects gets a warmed render worker: a small review of every kind of block is
// rendered off the window's thread, once for assistants that connect together.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RendererWarmUp, WARM_UP_REVIEW } from '../../extension/src/bridge/rendererWarmUp';
import { InThreadRenderEngine, type RenderJob } from '../../extension/src/render/renderJob';
import { IN_THREAD_BELOW_CHARS } from '../../extension/src/render/renderWorkerPool';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { until } from '../support/until';

describe('RendererWarmUp', () => {
  it('renders a review with headings, references, a list, a table and code, large enough for the worker, once for a burst of connections', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-warm-'));
    const jobs: RenderJob[] = [];
    const engine = new InThreadRenderEngine();
    const outcomes: Array<Awaited<ReturnType<InThreadRenderEngine['render']>>> = [];
    const renderer = new ReviewRenderer(() => [workspace], {
      engine: {
        render: async (job) => {
          jobs.push(job);
          const outcome = await engine.render(job);
          outcomes.push(outcome);
          return outcome;
        },
        dispose: () => undefined,
      },
    });
    try {
      const warmUp = new RendererWarmUp(renderer);
      warmUp.warm();
      warmUp.warm();
      await until(() => outcomes.length === 1, 'the warm-up render');
      expect(jobs).toHaveLength(1);
      // The worker pool renders a shorter review on the window's thread.
      expect(jobs[0].markdown.length).toBeGreaterThanOrEqual(IN_THREAD_BELOW_CHARS);
      const { html, references } = outcomes[0];
      expect(references.total).toBeGreaterThan(50);
      // No file it names is there: the warm-up reads nothing of the user's.
      expect(references.resolved).toBe(0);
      for (const mark of ['<h2', '<li', '<table', '<code', '<pre']) expect(html).toContain(mark);
      expect(jobs[0].markdown).toBe(WARM_UP_REVIEW);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
