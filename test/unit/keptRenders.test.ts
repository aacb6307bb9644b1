// After a large review, a small one starts clean: the replaced review's render is let go when it
// is replaced, while every assistant's current review keeps its own.

import type { RenderEngine, RenderJob, RenderOutcome } from '../../extension/src/render/renderJob';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { AssistantReviews } from '../../extension/src/review/assistantReviews';
import type { ReviewFindings } from '../../extension/src/review/reviewFindings';
import { silentLogger } from '../../shared/logger';

/** Renders nothing, and counts what it was asked to render. */
class CountingEngine implements RenderEngine {
  readonly rendered: string[] = [];
  async render(job: RenderJob): Promise<RenderOutcome> {
    this.rendered.push(job.markdown);
    return {
      html: '',
      references: { total: 0, resolved: 0, broken: [] },
      findings: [],
      cost: {} as RenderOutcome['cost'],
    };
  }
  dispose(): void {}
}

describe("the window's kept renders", () => {
  it("let go of a replaced review's render at once, and keep each assistant's current one", async () => {
    const engine = new CountingEngine();
    const renderer = new ReviewRenderer(() => [], { engine });
    const reviews = await AssistantReviews.open({
      root: undefined,
      historySize: 5,
      log: silentLogger,
      renderer,
      attachFindings: () => ({ findings: { dispose: () => undefined } as unknown as ReviewFindings }),
    });
    try {
      const first = await reviews.forAssistant('claude');
      const second = await reviews.forAssistant('codex');
      const large = await first.store.present({ content: '# Large\n\nevery call site', mode: 'replace' });
      const other = await second.store.present({ content: '# Codex', mode: 'replace' });
      await renderer.render(large);
      await renderer.render(other);
      expect(engine.rendered).toEqual(['# Large\n\nevery call site', '# Codex']);
      // Both are current: asked again, each comes from what is kept.
      await renderer.render(large);
      await renderer.render(other);
      expect(engine.rendered).toHaveLength(2);

      await first.store.present({ content: '# Small', mode: 'replace' });
      // The large one was replaced: its render is gone (asked for again, it is rendered again), the other assistant's stays.
      await renderer.render(other);
      expect(engine.rendered).toHaveLength(2);
      await renderer.render(large);
      expect(engine.rendered).toEqual(['# Large\n\nevery call site', '# Codex', '# Large\n\nevery call site']);
    } finally {
      await reviews.dispose();
      await renderer.dispose();
    }
  });
});
