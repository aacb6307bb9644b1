// What the panel posts next: an append's new part alone when the webview holds what it follows,
// the first screen of a long review before the whole of it, and the whole review otherwise.

import { PanelUpdates, type PanelReview } from '../../extension/src/panel/panelUpdates';
import { PREVIEW_MIN_CHARS, previewOf } from '../../extension/src/panel/preview';
import type { HostToWebviewMessage } from '../../extension/src/panel/webviewMessages';
import { StreamedPage } from '../../extension/src/render/streamedPage';

function harness() {
  const calls: string[] = [];
  const updates = new PanelUpdates({
    render: async (review) => {
      calls.push(`render r${review.revision}`);
      return { html: `<whole r${review.revision}>` };
    },
    renderPart: async (review, part) => {
      calls.push(`part r${review.revision}@${part.startLine}`);
      return `<part ${part.markdown.length}>`;
    },
  });
  let review: PanelReview | undefined;
  const present = (markdown: string, kind = 'replace', appended?: { markdown: string; startLine: number }) => {
    const previousRevision = review?.revision ?? 0;
    review = { revision: previousRevision + 1, markdown };
    updates.record({ kind, previousRevision, review, appended });
  };
  /** Posts what the panel would post next, as the panel does once the previous one is acknowledged. */
  const post = async (): Promise<HostToWebviewMessage> => {
    const [message] = await updates.next(review);
    updates.posted(message, review?.revision ?? 0);
    return message;
  };
  return { updates, calls, present, post, current: () => review };
}

describe('PanelUpdates', () => {
  it('sends the whole review first, then each append alone', async () => {
    const { updates, calls, present, post, current } = harness();
    present('# Review\n\nfirst');
    expect(await post()).toMatchObject({ type: 'render', revision: 1, html: '<whole r1>' });
    present('# Review\n\nfirst\n\nsecond', 'append', { markdown: 'second', startLine: 4 });
    present('# Review\n\nfirst\n\nsecond\n\nthird', 'append', { markdown: 'third', startLine: 6 });
    // Two appends while the first render was in flight go out together, in order.
    expect(await post()).toEqual({
      type: 'append',
      fromRevision: 1,
      revision: 3,
      title: undefined,
      html: '<part 6><part 5>',
    });
    expect(calls).toEqual(['render r1', 'part r3@4', 'part r3@6']);
    expect(updates.isBehind(current())).toBe(false);
  });

  it('sends the whole review again after the webview lost what it had', async () => {
    const { updates, present, post } = harness();
    present('# Review');
    await post();
    present('# Review\n\nmore', 'append', { markdown: 'more', startLine: 2 });
    updates.forget();
    expect(await post()).toMatchObject({ type: 'render', revision: 2 });
  });

  it('sends the whole review after a change that is not an append', async () => {
    const { present, post } = harness();
    present('# Review');
    await post();
    present('# Review\n\n## A\n\nnew', 'update-section');
    expect(await post()).toMatchObject({ type: 'render', revision: 2 });
  });

  it('sends the first screen of a long review, then the whole of it, then nothing', async () => {
    const { updates, calls, present, post, current } = harness();
    const long = `# Long\n\n${'- a finding at src/a.ts:1\n'.repeat(Math.ceil(PREVIEW_MIN_CHARS / 25))}`;
    present(long);
    const preview = await post();
    expect(preview).toMatchObject({ type: 'render', revision: 1, preview: true });
    expect((preview as { html: string }).html).toContain('Rendering the rest of this review');
    expect(updates.awaitingWhole).toBe(true);
    expect(updates.isBehind(current())).toBe(true);
    expect(await post()).toMatchObject({ type: 'render', revision: 1, html: '<whole r1>' });
    expect(updates.isBehind(current())).toBe(false);
    expect(calls).toEqual([`part r1@0`, 'render r1']);
  });

  it('does not append onto a preview', async () => {
    const { present, post } = harness();
    const long = `# Long\n\n${'text\n'.repeat(PREVIEW_MIN_CHARS / 5 + 10)}`;
    present(long);
    await post();
    present(`${long}\n\nmore`, 'append', { markdown: 'more', startLine: 99999 });
    expect(await post()).toMatchObject({ type: 'render', revision: 2, preview: true });
  });

  it('says where a review from a git worktree came from, in its header and in its appends', async () => {
    const updates = new PanelUpdates({
      render: async () => ({ html: '<whole>' }),
      renderPart: async () => '<part>',
      originOf: (review) => (review.cwd === '/repo-agent' ? 'the worktree /repo-agent' : undefined),
    });
    const [fromWorktree] = await updates.next({ revision: 1, markdown: '# R', cwd: '/repo-agent' });
    expect(fromWorktree).toMatchObject({ type: 'render', revision: 1, origin: 'the worktree /repo-agent' });
    const [fromFolder] = await updates.next({ revision: 2, markdown: '# R', cwd: '/repo' });
    expect(fromFolder).not.toHaveProperty('origin');
  });

  it('shows a failed render as an error in the panel instead of rejecting', async () => {
    const updates = new PanelUpdates({
      render: async () => {
        throw new Error('disk <gone>');
      },
      renderPart: async () => '',
    });
    expect(await updates.next({ revision: 1, markdown: '# x' })).toMatchObject([
      {
        type: 'render',
        html: expect.stringContaining('could not be rendered: disk &lt;gone&gt;'),
      },
    ]);
  });

  it('sends the empty state when the review was cleared', async () => {
    const { updates, post } = harness();
    expect(await post()).toEqual({ type: 'empty' });
    expect(updates.isBehind(undefined)).toBe(false);
  });
});

describe('previewOf', () => {
  const pad = (text: string) => text + '\n' + 'tail line\n'.repeat(PREVIEW_MIN_CHARS / 10);

  it('leaves a short review alone', () => {
    expect(previewOf('# Short\n\ntext\n')).toBeUndefined();
  });

  it('cuts at a line end after the first screen', () => {
    const preview = previewOf(pad(Array.from({ length: 500 }, (_, i) => `- item ${i}`).join('\n')))!;
    expect(preview.endsWith('\n')).toBe(true);
    expect(preview.split('\n').length - 1).toBe(200);
  });

  it('does not leave a code fence open: it cuts before the fence instead', () => {
    const head = '# Review\n\nSome text.\n\n';
    const preview = previewOf(pad(`${head}\`\`\`ts\n${'code();\n'.repeat(400)}\`\`\`\n`))!;
    expect(preview).toBe(head.slice(0, head.length - 1));
  });

  it('knows a fence is closed only by a run of the same character at least as long', () => {
    const text = pad(`\`\`\`\`md\n~~~\n\`\`\`\n\`\`\`\`\n${'after\n'.repeat(300)}`);
    expect(previewOf(text)).toContain('after');
  });

  it('stays small however long the lines are', () => {
    const preview = previewOf(pad(`${'x'.repeat(20_000)}\n`.repeat(10)))!;
    expect(preview.length).toBeLessThanOrEqual(60_000);
  });

  it("posts an incoming review's page as its render writes it, and nothing again once it is staged", async () => {
    const { updates, calls, present, post, current } = harness();
    present('# Small\n');
    await post();
    const long = `# Long\n\n${'- src/a.ts:1 a finding\n'.repeat(PREVIEW_MIN_CHARS / 10)}`;
    const page = new StreamedPage();
    const incoming = { revision: 2, markdown: long, incoming: true, page };
    expect(updates.streamed(incoming)).toBeUndefined();
    page.add('<p>first</p>');
    const { first, rest } = updates.streamed(incoming)!;
    expect(first).toEqual({ type: 'render', revision: 2, title: undefined, html: '<p>first</p>', more: true });
    updates.posted(first, 2);
    const following: HostToWebviewMessage[] = [];
    const reading = (async () => {
      for await (const message of rest) following.push(message);
    })();
    page.add('<p>second</p>');
    page.finish();
    await reading;
    expect(following).toEqual([
      { type: 'slice', revision: 2, html: '<p>second</p>', last: false },
      { type: 'slice', revision: 2, html: '', last: true },
    ]);
    expect(updates.isBehind(incoming)).toBe(false);
    present(long);
    expect(current()!.revision).toBe(2);
    // The webview holds the whole page already: nothing is rendered or posted for it again.
    expect(updates.isBehind(current())).toBe(false);
    expect(calls).toEqual(['render r1']);
  });

  it('ends an incoming page without a last slice when its render fails', async () => {
    const { updates } = harness();
    const page = new StreamedPage();
    page.add('<p>first</p>');
    const { rest } = updates.streamed({ revision: 3, markdown: 'x', incoming: true, page })!;
    page.fail();
    const following: HostToWebviewMessage[] = [];
    for await (const message of rest) following.push(message);
    expect(following).toEqual([]);
  });
});
