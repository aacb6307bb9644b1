// The panel's delivery: one render in flight, only the latest review sent, and everything sent
// again whole when the webview lost it or another assistant's review is shown.

import { ReviewDelivery, type DeliveryTarget } from '../../extension/src/panel/reviewDelivery';
import type { PanelReview } from '../../extension/src/panel/panelUpdates';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function setup() {
  let review: PanelReview | undefined;
  const posted: HostToWebviewMessage[] = [];
  let delivered = true;
  const target: DeliveryTarget = {
    post: async (message) => {
      posted.push(message);
      return delivered;
    },
    visible: true,
    shown: () => review,
    sending: () => undefined,
  };
  const delivery = new ReviewDelivery(
    {
      render: async (shown) => ({ html: `<p>${shown.markdown}</p>` }),
      renderPart: async (_shown, part) => `<p>${part.markdown}</p>`,
    },
    target,
  );
  return {
    delivery,
    posted,
    show: (next: PanelReview | undefined) => (review = next),
    failPosts: () => (delivered = false),
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
    expect(posted).toEqual([{ type: 'render', revision: 2, title: undefined, html: '<p>two</p>', firstScreen: undefined }]);
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
});
