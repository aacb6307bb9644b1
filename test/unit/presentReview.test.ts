// present-review in the window, below the socket: a large review is rendered before it is shown,
// changes keep their arrival order, progress names the real steps, and a cancel stops the call up
// to the moment the review is shown, and not after.

import { IncomingReview } from '../../extension/src/review/incomingReview';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { typicalReview, writeFixtureFiles } from '../../bench/reviewFixtures';
import { ErrorCode, LARGE_REVIEW_BYTES, type ProgressUpdate } from '../../shared/protocol';
import { presentReviewHandler } from '../../extension/src/bridge/presentReview';
import type { RequestContext } from '../../extension/src/ipc/requestContract';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { ArrivalOrder } from '../../extension/src/review/arrivalOrder';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { until } from '../support/until';
import { InThreadRenderEngine } from '../../extension/src/render/renderJob';
import { findSections, toSections } from '../../extension/src/render/sections';

describe('ArrivalOrder', () => {
  it('lets each turn go when every earlier one has left, and one that is first at once', async () => {
    const order = new ArrivalOrder();
    const a = order.enter();
    const b = order.enter();
    const c = order.enter();
    expect(a.first).toBe(true);
    const went: string[] = [];
    const waits = [b.reached().then(() => went.push('b')), c.reached().then(() => went.push('c'))];
    a.leave();
    await Promise.resolve();
    expect(went).toEqual(['b']);
    b.leave();
    b.leave();
    await Promise.all(waits);
    expect(went).toEqual(['b', 'c']);
    c.leave();
    expect(order.length).toBe(0);
  });

  it('a turn that leaves from the middle does not hold the line, and an aborted wait rejects with its reason', async () => {
    const order = new ArrivalOrder();
    const a = order.enter();
    const b = order.enter();
    const c = order.enter();
    const controller = new AbortController();
    const bWait = b.reached(controller.signal);
    controller.abort(new Error('gone'));
    await expect(bWait).rejects.toThrow('gone');
    b.leave();
    const cWait = c.reached();
    a.leave();
    await cWait;
    expect(c.first).toBe(true);
  });
});

describe('the present-review handler', () => {
  let workspace: string;
  let store: ReviewStore;
  let handler: ReturnType<typeof presentReviewHandler>;
  const large = () => typicalReview(LARGE_REVIEW_BYTES + 64 * 1024);

  beforeAll(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-present-'));
    writeFixtureFiles(workspace);
  });
  afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));
  beforeEach(() => {
    store = ReviewStore.inMemory({ historySize: 5 });
    const owner = { store, findings: { presented: async () => [] }, incoming: new IncomingReview() };
    const reviews = { existing: () => owner, forAssistant: async () => owner } as unknown as Parameters<
      typeof presentReviewHandler
    >[0];
    handler = presentReviewHandler(reviews, new ReviewRenderer(() => [workspace]));
  });

  function context(controller = new AbortController()) {
    const progress: ProgressUpdate[] = [];
    const events: string[] = [];
    const value: RequestContext = {
      signal: controller.signal,
      connectionId: 1,
      progress: (update) => {
        progress.push(update);
        events.push(update.message);
      },
      commit: () => events.push('commit'),
    };
    return { value, progress, events, controller };
  }

  it('shows a small review as the call arrives, before it yields', async () => {
    const done = handler(
      { content: '# Small\n\nsrc/mod1/index.ts:3', mode: 'replace', cwd: workspace },
      context().value,
    );
    expect(store.current?.markdown).toBe('# Small\n\nsrc/mod1/index.ts:3');
    expect((await done).references).toMatchObject({ total: 1, resolved: 1 });
  });

  it('renders a large review before showing it, naming each step, and commits just before it is shown', async () => {
    const call = context();
    const content = large();
    const result = await handler({ content, mode: 'replace', cwd: workspace }, call.value);
    expect(store.current?.markdown).toBe(content);
    expect(result.references.total).toBeGreaterThan(3000);
    expect(result.references.unchecked).toBe(0);
    const steps = call.events.map((event) => event.replace(/[\d.,]+/g, 'N'));
    expect(steps[0]).toBe('Received the review (N MiB)');
    expect(steps).toContain('Rendering: found N references');
    expect(steps).toContain('Marking findings in N blocks');
    // A large review is written in parts, each told after the first part's steps.
    expect(steps).toContain('Writing the page');
    expect(steps.slice(-4)).toEqual([
      'Rendering: N% of the page written',
      'commit',
      'Shown in the panel; saving it',
      'Saved',
    ]);
    const values = call.progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(call.progress.every((p) => p.total === 100)).toBe(true);
  });

  it('keeps arrival order: an append that arrives behind a large replace lands after it', async () => {
    const content = large();
    const replace = handler({ content, mode: 'replace', cwd: workspace }, context().value);
    const append = context();
    const appended = handler(
      { content: '## Later\n\nafter the large one', mode: 'append', cwd: workspace },
      append.value,
    );
    // The small call waits for its turn; it is not applied first.
    expect(store.current).toBeUndefined();
    await Promise.all([replace, appended]);
    expect(store.current!.markdown.startsWith(content.trimEnd())).toBe(true);
    expect(store.current!.markdown.endsWith('## Later\n\nafter the large one')).toBe(true);
    expect(append.events).toContain("Waiting for this assistant's earlier changes to be applied");
  });

  it('a cancel during the render stops the call, shows nothing, and lets the call behind it go', async () => {
    await handler({ content: '# Before', mode: 'replace' }, context().value);
    const before = store.current;
    const cancelled = context();
    const progress = cancelled.value.progress;
    const stopping = {
      ...cancelled.value,
      progress: (update: ProgressUpdate) => (
        progress(update),
        update.message.startsWith('Rendering:') && cancelled.controller.abort()
      ),
    };
    const large = handler(
      { content: typicalReview(LARGE_REVIEW_BYTES * 2), mode: 'replace', cwd: workspace },
      stopping,
    );
    const behind = handler({ content: '## Behind', mode: 'append' }, context().value);
    await expect(large).rejects.toMatchObject({ code: ErrorCode.Cancelled });
    expect(cancelled.events).not.toContain('commit');
    expect(cancelled.events).not.toContain('Writing the page');
    await behind;
    expect(store.current!.markdown).toBe('# Before\n\n## Behind');
    expect(store.current!.revision).toBe(before!.revision + 1);
  });

  it('a cancel once the review is shown is too late: the call goes on and answers with its result', async () => {
    const call = context();
    const progress = call.value.progress;
    const late = {
      ...call.value,
      progress: (update: ProgressUpdate) => (
        progress(update),
        update.message.startsWith('Shown') && call.controller.abort()
      ),
    };
    const result = await handler({ content: large(), mode: 'replace', cwd: workspace }, late);
    expect(call.controller.signal.aborted).toBe(true);
    expect(result.revision).toBe(store.current!.revision);
    expect(call.events.at(-1)).toBe('Saved');
  });
});

describe('the present-review handler, what it no longer does', () => {
  let workspace: string;
  beforeAll(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-present-'));
    writeFixtureFiles(workspace);
  });
  afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

  function handlerFor(store: ReviewStore, presented: (findings: readonly unknown[]) => Promise<[]>) {
    const owner = { store, findings: { presented }, incoming: new IncomingReview() };
    const reviews = { existing: () => owner, forAssistant: async () => owner } as unknown as Parameters<
      typeof presentReviewHandler
    >[0];
    return presentReviewHandler(reviews, new ReviewRenderer(() => [workspace]));
  }
  const context = (): RequestContext => ({
    signal: new AbortController().signal,
    connectionId: 1,
    progress: () => undefined,
    commit: () => undefined,
  });

  it("anchors a large review's findings while it is written, not after the write", async () => {
    const store = ReviewStore.inMemory({ historySize: 5 });
    let release!: () => void;
    const writing = new Promise<void>((resolve) => (release = resolve));
    const stage = store.stage.bind(store);
    store.stage = (request, known) => ({ ...stage(request, known), durable: writing });
    let anchored = 0;
    const call = handlerFor(store, async (findings) => ((anchored = findings.length), []))(
      { content: typicalReview(LARGE_REVIEW_BYTES + 1024), mode: 'replace', cwd: workspace },
      context(),
    );
    await until(() => anchored > 0, 'the findings anchored while the write is held');
    release();
    await call;
  });

  it("takes a large review's sections from its render as one string, not as an object per heading, and stores exactly the sections the text has", async () => {
    const store = ReviewStore.inMemory({ historySize: 5 });
    const content = typicalReview(LARGE_REVIEW_BYTES + 1024);
    const outcome = await new InThreadRenderEngine().render({
      markdown: content,
      roots: [workspace],
      withSections: true,
    });
    expect(typeof outcome.sectionsJson).toBe('string');
    expect(Object.keys(outcome)).not.toContain('sections');
    await handlerFor(store, async () => [])({ content, mode: 'replace', cwd: workspace }, context());
    expect(store.current!.sections).toEqual(toSections(findSections(content)));
    expect(store.current!.sections.length).toBeGreaterThan(500);
  });

  it('counts the UTF-8 size of what was sent once, however many steps need it', async () => {
    const store = ReviewStore.inMemory({ historySize: 5 });
    const content = typicalReview(LARGE_REVIEW_BYTES + 1024);
    const count = jest.spyOn(Buffer, 'byteLength');
    try {
      await handlerFor(store, async () => [])({ content, mode: 'replace', cwd: workspace }, context());
      await handlerFor(store, async () => [])({ content: `${content}\n`, mode: 'replace', cwd: workspace }, context());
      expect(count.mock.calls.filter(([text]) => text === content)).toHaveLength(1);
    } finally {
      count.mockRestore();
    }
  });
});
