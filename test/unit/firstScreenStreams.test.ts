// A large present-review's first screen reaches the panel while the rest of the review is still
// being rendered, and the page the panel ends with is the whole render's, posted once. The render
// here is the real renderer, with its file lookups for the end of the review held until the test
// has seen the first screen posted to a fake webview.

import { presentReviewHandler } from '../../extension/src/bridge/presentReview';
import type { RequestContext } from '../../extension/src/ipc/requestContract';
import { ReviewDelivery } from '../../extension/src/panel/reviewDelivery';
import type { PanelReview } from '../../extension/src/panel/panelUpdates';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';
import { renderReview, type Resolver } from '../../extension/src/render/markdownRenderer';
import type { RenderEngine } from '../../extension/src/render/renderJob';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { findSections } from '../../extension/src/render/sections';
import { IncomingReview } from '../../extension/src/review/incomingReview';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { LARGE_REVIEW_BYTES } from '../../shared/protocol';
import { denseReview } from '../../bench/reviewFixtures';
import { until } from '../support/until';

/** Every file exists; a lookup of src/held.ts waits until `release`. */
function heldResolver() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const resolver: Resolver = {
    resolve: async (ref) => {
      if (ref.path === 'src/held.ts') await held;
      return { status: 'resolved', absolutePath: `/ws/${ref.path}`, lineCount: 500 };
    },
  };
  return { resolver, release };
}

function setup() {
  const { resolver, release } = heldResolver();
  let finished = 0;
  /** The markdown of every render asked of the engine, in order. */
  const jobs: string[] = [];
  const engine: RenderEngine = {
    render: async (job, control = {}) => {
      jobs.push(job.markdown);
      const rendered = await renderReview(job.markdown, resolver, { ...control, lineOffset: job.lineOffset });
      finished++;
      return { ...rendered, ...(job.withSections ? { sections: findSections(job.markdown) } : {}) };
    },
    dispose: () => undefined,
  };
  const renderer = new ReviewRenderer(() => ['/ws'], { engine });
  const store = ReviewStore.inMemory({ historySize: 5 });
  const owner = { store, findings: { presented: async () => [] }, incoming: new IncomingReview() };
  const reviews = { existing: () => owner, forAssistant: async () => owner } as unknown as Parameters<
    typeof presentReviewHandler
  >[0];
  const handler = presentReviewHandler(reviews, renderer);
  const posted: HostToWebviewMessage[] = [];
  /** The fake webview says it took each slice, and painted a page once the page is whole, as the real one does. */
  const acknowledge = (message: HostToWebviewMessage) => {
    const painted =
      message.type === 'empty'
        ? 0
        : (message.type === 'render' && !message.more) || (message.type === 'slice' && message.last)
          ? message.revision
          : undefined;
    if (painted !== undefined) setTimeout(() => delivery.rendered(painted), 0);
    else if (message.type === 'render' || message.type === 'slice')
      setTimeout(() => delivery.sliceAdded(message.revision), 0);
  };
  const delivery: ReviewDelivery = new ReviewDelivery(
    {
      render: (review) => renderer.render(review),
      renderPart: async (review, part) =>
        (await renderer.renderFragment(part.markdown, review.cwd, { lineOffset: part.startLine })).html,
    },
    {
      post: async (message) => {
        posted.push(message);
        acknowledge(message);
        return true;
      },
      visible: true,
      shown: (): PanelReview | undefined => {
        const incoming = owner.incoming.current;
        return incoming ? { ...incoming, incoming: true } : store.current;
      },
      sending: () => undefined,
    },
  );
  owner.incoming.onDidChange(() => delivery.schedule());
  store.onDidChange((change) => delivery.record(change));
  delivery.documentReady();
  return { handler, store, posted, release, renderer, jobs, finished: () => finished };
}

function context(): RequestContext {
  return { signal: new AbortController().signal, connectionId: 1, progress: () => undefined, commit: () => undefined };
}

/** The page the fake webview holds: the last render and the slices after it. */
function pageOf(posted: readonly HostToWebviewMessage[]): string {
  const start = posted.map((message) => message.type).lastIndexOf('render');
  return posted
    .slice(start)
    .map((message) => (message.type === 'render' || message.type === 'slice' ? message.html : ''))
    .join('');
}

describe('a large review streams to the panel', () => {
  it('posts the first screen before the whole review is rendered, then the rest, ending as the whole render', async () => {
    const { handler, store, posted, release, renderer, finished } = setup();
    const content = `${denseReview(12_000)}\nThe last line names src/held.ts:3.\n`;
    expect(content.length).toBeGreaterThan(LARGE_REVIEW_BYTES);
    const call = handler({ content, mode: 'replace', title: 'Dense' }, context());

    await until(() => posted.some((message) => message.type === 'render'), 'the first screen posted');
    const first = posted.find((message) => message.type === 'render')!;
    expect(first).toMatchObject({ type: 'render', revision: 1, title: 'Dense', more: true });
    expect(first.type === 'render' && first.html).toContain('Every call site');
    // The render is held on the review's last reference: nothing is stored, nothing is finished.
    expect(finished()).toBe(0);
    expect(store.current).toBeUndefined();

    release();
    const result = await call;
    expect(result.revision).toBe(1);
    await until(() => posted.some((message) => message.type === 'slice' && message.last), 'the last slice');
    // Once staged, the review is not posted again: the panel holds it whole.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(posted.filter((message) => message.type === 'render')).toHaveLength(1);
    const whole = await renderer.render(store.current!);
    expect(pageOf(posted)).toBe(whole.html);
    expect(whole.html).toContain('data-ref="src/held.ts:3"');
    expect(finished()).toBe(1);
  });

  it('gives way to the review before it when the render is refused after the first screen', async () => {
    const { handler, store, posted, release } = setup();
    await handler({ content: '# Before\n', mode: 'replace' }, context());
    await until(() => posted.some((message) => message.type === 'render'), 'the small review');
    const wide = `| ${Array.from({ length: 300 }, (_, i) => `c${i}`).join(' | ')} |\n|${'---|'.repeat(300)}\n`;
    const content = `${denseReview(12_000)}\nsrc/held.ts:3\n\n${wide}`;
    const call = handler({ content, mode: 'replace' }, context()).catch((error: Error) => error);
    await until(
      () => posted.some((message) => message.type === 'render' && message.revision === 2),
      'the first screen of the refused review',
    );
    release();
    expect(await call).toMatchObject({ message: expect.stringContaining('columns in one table') });
    expect(store.current!.revision).toBe(1);
    await until(() => pageOf(posted).includes('Before'), 'the review before it, again');
  });

  it('shows a small review after the large one with one post of its own page, rendering and diffing nothing of the old', async () => {
    const { handler, posted, release, jobs } = setup();
    release();
    const large = `${denseReview(12_000)}\nsrc/held.ts:3\n`;
    await handler({ content: large, mode: 'replace' }, context());
    await until(() => posted.some((message) => message.type === 'slice' && message.last), 'the large page whole');
    const before = posted.length;
    const rendersBefore = jobs.length;

    await handler({ content: '# Small\n\nsrc/a.ts:1', mode: 'replace' }, context());
    await until(() => posted.length > before, 'the small review posted');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const after = posted.slice(before);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ type: 'render', revision: 2 });
    expect(after[0]).not.toHaveProperty('more');
    expect(after[0].type === 'render' && after[0].html).toBe(
      '<h1 data-line="0">Small</h1>\n<p data-line="2"><a class="redline-ref" href="#" data-ref="src/a.ts:1" title="Open src/a.ts:1">src/a.ts:1</a></p>\n',
    );
    // One render, of the small review: nothing of the large one is rendered again or compared with.
    expect(jobs.slice(rendersBefore)).toEqual(['# Small\n\nsrc/a.ts:1']);
  });
});
