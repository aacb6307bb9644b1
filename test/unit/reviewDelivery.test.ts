// The panel's delivery: one render in flight, only the latest review sent, and everything sent
// again whole when the webview lost it or another assistant's review is shown.

import { ReviewDelivery, type DeliveryTarget } from '../../extension/src/panel/reviewDelivery';
import type { PanelReview } from '../../extension/src/panel/panelUpdates';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Slices go one per task: on a busy machine (the whole suite in parallel) 5 ms may see only some of them. */
async function until(done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !done() && Date.now() < deadline; ) await tick();
}

function setup() {
  let review: PanelReview | undefined;
  const posted: HostToWebviewMessage[] = [];
  let delivered = true;
  /** Each post resolves only when the test lets it, as a slow webview's would. */
  let holdPosts = false;
  const held: Array<() => void> = [];
  const target: DeliveryTarget = {
    post: async (message) => {
      posted.push(message);
      if (holdPosts) await new Promise<void>((resolve) => held.push(resolve));
      return delivered;
    },
    visible: true,
    shown: () => review,
    sending: () => undefined,
  };
  const delivery = new ReviewDelivery(
    {
      // "long" reviews come in three slices: <p>a</p> | <p>b</p> | <p>c</p>.
      render: async (shown) => (shown.markdown === 'long' ? { html: '<p>a</p><p>b</p><p>c</p>', slices: [8, 16] } : { html: `<p>${shown.markdown}</p>` }),
      renderPart: async (_shown, part) => `<p>${part.markdown}</p>`,
    },
    target,
  );
  return {
    delivery,
    posted,
    show: (next: PanelReview | undefined) => (review = next),
    failPosts: () => (delivered = false),
    holdPosts: () => (holdPosts = true),
    releasePost: () => held.shift()?.(),
  };
}

describe('ReviewDelivery', () => {
  it('sends nothing before the webview is ready, then the latest review only', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'one' });
    delivery.schedule();
    await tick();
    expect(posted).toEqual([]);
    show({ revision: 2, markdown: 'two' });
    delivery.documentReady();
    await tick();
    expect(posted).toEqual([{ type: 'render', revision: 2, title: undefined, html: '<p>two</p>' }]);
  });

  it('keeps one render in flight until the webview says it painted it', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'one' });
    delivery.documentReady();
    await tick();
    show({ revision: 2, markdown: 'two' });
    delivery.schedule();
    show({ revision: 3, markdown: 'three' });
    delivery.schedule();
    await tick();
    expect(posted.map((m) => m.type === 'render' && m.revision)).toEqual([1]);
    expect(delivery.rendered(1)).toBe(true);
    await tick();
    expect(posted.map((m) => m.type === 'render' && m.revision)).toEqual([1, 3]);
  });

  it('sends another assistant\'s review whole, even when it has the same revision', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'mine' });
    delivery.documentReady();
    await tick();
    delivery.rendered(1);
    show({ revision: 1, markdown: 'theirs' });
    delivery.schedule();
    await tick();
    expect(posted).toHaveLength(1);
    delivery.switchReview();
    await tick();
    expect(posted.at(-1)).toMatchObject({ type: 'render', revision: 1, html: '<p>theirs</p>' });
  });

  it('sends again whole after a post that did not arrive', async () => {
    const { delivery, posted, show, failPosts } = setup();
    failPosts();
    show({ revision: 1, markdown: 'one' });
    delivery.documentReady();
    await tick();
    delivery.schedule();
    await tick();
    expect(posted.length).toBeGreaterThanOrEqual(2);
    expect(posted.every((m) => m.type === 'render' && m.revision === 1)).toBe(true);
  });

  it('posts a long page as its first slice and then the others, in order, one per task', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'long' });
    delivery.documentReady();
    await until(() => posted.length >= 3);
    expect(posted).toEqual([
      { type: 'render', revision: 1, title: undefined, html: '<p>a</p>', more: true },
      { type: 'slice', revision: 1, html: '<p>b</p>', last: false },
      { type: 'slice', revision: 1, html: '<p>c</p>', last: true },
    ]);
  });

  it('stops posting a page that another review replaced, and sends that one at once', async () => {
    const { delivery, posted, show, holdPosts, releasePost } = setup();
    holdPosts();
    show({ revision: 1, markdown: 'long' });
    delivery.documentReady();
    await tick();
    expect(posted.map((message) => message.type)).toEqual(['render']);
    // Another review, before the webview took the rest of the page or acknowledged it.
    show({ revision: 7, markdown: 'next' });
    delivery.schedule();
    await tick();
    releasePost();
    await tick();
    releasePost();
    await tick();
    expect(posted).toEqual([
      { type: 'render', revision: 1, title: undefined, html: '<p>a</p>', more: true },
      { type: 'render', revision: 7, title: undefined, html: '<p>next</p>' },
    ]);
  });

  it('sends an append to a long page after the whole page is acknowledged', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'long' });
    delivery.documentReady();
    await tick();
    delivery.record({ kind: 'append', previousRevision: 1, review: { revision: 2 }, appended: { markdown: 'more', startLine: 2 } });
    show({ revision: 2, markdown: 'long\n\nmore' });
    await tick();
    expect(posted).toHaveLength(3);
    expect(delivery.rendered(1)).toBe(true);
    await tick();
    expect(posted[3]).toEqual({ type: 'append', fromRevision: 1, revision: 2, title: undefined, html: '<p>more</p>' });
  });
});
