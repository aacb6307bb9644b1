// The panel's delivery: one render in flight, only the latest review sent, and everything sent
// again whole when the webview lost it or another assistant's review is shown.

import { MAX_HTML_AHEAD, ReviewDelivery, type DeliveryTarget } from '../../extension/src/panel/reviewDelivery';
import { StreamedPage } from '../../extension/src/render/streamedPage';
import type { PanelReview } from '../../extension/src/panel/panelUpdates';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';
import { until } from '../support/until';

/**
 * Resolves on a timer set after the delivery's own (schedule() defers its flush by a zero timeout),
 * so that flush has run by then, with the render it started and the first post (these renderers
 * answer at once): whatever the load, what it would have sent is in `posted`. Slices after the
 * first go one per task and are waited for with `until`.
 */
const afterFlush = () => new Promise((resolve) => setTimeout(resolve, 0));

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
      render: async (shown) =>
        shown.markdown === 'long'
          ? { html: '<p>a</p><p>b</p><p>c</p>', slices: [8, 16] }
          : { html: `<p>${shown.markdown}</p>` },
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
    await afterFlush();
    expect(posted).toEqual([]);
    show({ revision: 2, markdown: 'two' });
    delivery.documentReady();
    await until(() => posted.length >= 1, 'the render once the webview is ready');
    expect(posted).toEqual([{ type: 'render', revision: 2, title: undefined, html: '<p>two</p>' }]);
  });

  it('keeps one render in flight until the webview says it painted it', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'one' });
    delivery.documentReady();
    await until(() => posted.length >= 1, 'the first render');
    show({ revision: 2, markdown: 'two' });
    delivery.schedule();
    show({ revision: 3, markdown: 'three' });
    delivery.schedule();
    await afterFlush();
    expect(posted.map((m) => m.type === 'render' && m.revision)).toEqual([1]);
    expect(delivery.rendered(1)).toBe(true);
    await until(() => posted.length >= 2, 'the latest review once the first is painted');
    expect(posted.map((m) => m.type === 'render' && m.revision)).toEqual([1, 3]);
  });

  it("sends another assistant's review whole, even when it has the same revision", async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'mine' });
    delivery.documentReady();
    await until(() => posted.length >= 1, 'the first render');
    delivery.rendered(1);
    show({ revision: 1, markdown: 'theirs' });
    delivery.schedule();
    await afterFlush();
    expect(posted).toHaveLength(1);
    delivery.switchReview();
    await until(() => posted.length >= 2, "the other assistant's review after the switch");
    expect(posted.at(-1)).toMatchObject({ type: 'render', revision: 1, html: '<p>theirs</p>' });
  });

  it('sends again whole after a post that did not arrive', async () => {
    const { delivery, posted, show, failPosts } = setup();
    failPosts();
    show({ revision: 1, markdown: 'one' });
    delivery.documentReady();
    await until(() => posted.length >= 1, 'the first post');
    delivery.schedule();
    await until(() => posted.length >= 2, 'the review posted again');
    expect(posted.every((m) => m.type === 'render' && m.revision === 1)).toBe(true);
  });

  it('posts a long page as its first slice and then the others, in order, one per task', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'long' });
    delivery.documentReady();
    await until(() => posted.length >= 3, "the page's three slices");
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
    await until(() => posted.length >= 1, "the page's first slice");
    expect(posted.map((message) => message.type)).toEqual(['render']);
    // Another review, before the webview took the rest of the page or acknowledged it.
    show({ revision: 7, markdown: 'next' });
    delivery.schedule();
    await until(() => posted.length >= 2, 'the review that replaces the page');
    releasePost();
    releasePost();
    // The page's next slice would go one task after its released post, in this turn of the event
    // loop; a timer set now fires in a later turn, after it.
    await afterFlush();
    expect(posted).toEqual([
      { type: 'render', revision: 1, title: undefined, html: '<p>a</p>', more: true },
      { type: 'render', revision: 7, title: undefined, html: '<p>next</p>' },
    ]);
  });

  it('sends an append to a long page after the whole page is acknowledged', async () => {
    const { delivery, posted, show } = setup();
    show({ revision: 1, markdown: 'long' });
    delivery.documentReady();
    await until(() => posted.length >= 1, "the page's first slice");
    // An append while the rest of the page is still on its way.
    delivery.record({
      kind: 'append',
      previousRevision: 1,
      review: { revision: 2 },
      appended: { markdown: 'more', startLine: 2 },
    });
    show({ revision: 2, markdown: 'long\n\nmore' });
    await until(() => posted.length >= 3, "the rest of the page's slices");
    await afterFlush();
    // The append's flush has run, and held the append back.
    expect(posted.map((message) => message.type)).toEqual(['render', 'slice', 'slice']);
    expect(delivery.rendered(1)).toBe(true);
    await until(() => posted.length >= 4, 'the append once the page is acknowledged');
    expect(posted[3]).toEqual({ type: 'append', fromRevision: 1, revision: 2, title: undefined, html: '<p>more</p>' });
  });

  it("posts a streamed page's next slice only once the webview has taken enough, and a new review at once", async () => {
    const { delivery, posted, show } = setup();
    const page = new StreamedPage();
    const slice = (n: number) => `<p>${String(n).repeat(MAX_HTML_AHEAD / 2 - 8)}</p>`;
    page.add(slice(1));
    show({ revision: 7, markdown: 'large', incoming: true, page });
    delivery.documentReady();
    await until(() => posted.length >= 1, 'the first slice');
    page.add(slice(2));
    page.add(slice(3));
    await until(() => posted.length >= 2, 'the second slice, within the HTML allowed ahead');
    for (let i = 0; i < 5; i++) await afterFlush();
    // The third would put more than MAX_HTML_AHEAD in the pipe: it waits for the webview.
    expect(posted.map((message) => message.type)).toEqual(['render', 'slice']);
    delivery.sliceAdded(7);
    await until(() => posted.length >= 3, 'the third slice once the first was taken');
    // The next review does not queue behind the rest of the page.
    show({ revision: 8, markdown: 'next' });
    delivery.schedule();
    await until(() => posted.length >= 4, 'the next review');
    expect(posted[3]).toMatchObject({ type: 'render', revision: 8, html: '<p>next</p>' });
    page.finish();
    for (let i = 0; i < 5; i++) await afterFlush();
    expect(posted).toHaveLength(4);
  });
});
