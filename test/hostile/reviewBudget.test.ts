// Reviews whose bytes are within the limit but whose structure is not: each is refused before it
// is parsed, naming the limit and by how much, with the window's thread and memory untouched and
// the review already shown kept. The suite prints each one's longest stall and peak heap.

import { ErrorCode, type ParamsOf, type ResultOf } from '../../shared/protocol';
import { budgetRefusal, measureReview, overBudget, REVIEW_BUDGET } from '../../shared/reviewBudget';
import { RenderBudgetError, renderReview } from '../../extension/src/render/markdownRenderer';
import { ReferenceResolver } from '../../extension/src/render/referenceResolver';
import { AUDIT_ROWS, denseReview, typicalReview } from '../../bench/reviewFixtures';
import { startHost, type Host } from '../integration/harness';
import { RawPeer, type WireReply } from '../integration/rawPeer';
import { monitorThreadHolds } from '../support/threadHolds';

const MiB = 1024 * 1024;

/** The audit's inputs: 10 MiB or 5 MiB of one tiny block or mark, repeated. */
const PATHOLOGICAL: Array<[string, () => string, RegExp]> = [
  [
    '10 MiB of "a\\n\\n"',
    () => 'a\n\n'.repeat(Math.floor((10 * MiB) / 3)),
    /about 3,49\d,\d{3} blocks .*the limit is 250,000 \(14\.0× over\)/,
  ],
  ['10 MiB of "#\\n"', () => '#\n'.repeat(5 * MiB), /about 5,24\d,\d{3} blocks .*\(21\.0× over\)/],
  ['5 MiB of "#\\n"', () => '#\n'.repeat(2.5 * MiB), /about 2,62\d,\d{3} blocks .*\(10\.5× over\)/],
  ['10 MiB of "-\\n"', () => '-\n'.repeat(5 * MiB), /about 5,24\d,\d{3} blocks .*\(21\.0× over\)/],
  ['10 MiB of "*a"', () => '*a'.repeat(5 * MiB), /about 5,242,880 inline marks .*the limit is 500,000 \(10\.5× over\)/],
];

describe('the cost budget, measured', () => {
  it("lets the bench's large reviews through: 10 MiB of findings and a 70,000-reference list", () => {
    expect(overBudget(measureReview(typicalReview(10 * MiB)))).toBeUndefined();
    expect(overBudget(measureReview(denseReview(70_000)))).toBeUndefined();
  });

  it('counts blocks, headings and marks as markdown makes them: fenced code is one block, snake_case no mark', () => {
    const cost = measureReview(
      '# Title\n\nA paragraph\nover two lines with *em* and `code`.\n\n- one\n- two\n\n```ts\n# not a heading\n- nor an item\n```\n\nsnake_case_name and _em_\n',
    );
    // Elements: 6 blocks, a line break, and the em, code and second em (two marks each).
    expect(cost).toEqual({ blocks: 6, headings: 1, inlineMarks: 6, elements: 10 });
  });

  // The audit's inputs that the estimate let through before it counted strikethrough, autolinks,
  // line breaks, table cells and references (issue 32); the render's own counts are render/renderBudget.ts's.
  it.each([
    ['`~~a~~ ` repeated', /about 6,990,50\d inline marks .*\(14\.0× over\)/],
    ['`a\\` + newline (hard breaks)', /about 3,495,25\d elements in its page .*the limit is 750,000 \(4\.7× over\)/],
    ['`<aa:> ` autolinks', /about 1,747,62\d inline marks .*\(3\.5× over\)/],
    ['one paragraph of `a` lines', /about 5,242,88\d elements in its page .*\(7\.0× over\)/],
    ['prose file references (`f1.ts:1 …`)', /about 97\d,\d{3} elements in its page .*\(1\.3× over\)/],
    ['a table of 60,000 columns', /about 60,000 columns in one table; the limit is 256 \(234\.4× over\)/],
  ])("refuses the audit's 10 MiB %s before the parse", (name, message) => {
    const row = AUDIT_ROWS.find((candidate) => candidate.name === name)!;
    expect(budgetRefusal(row.make(10 * MiB))).toMatch(message);
  });

  it('refuses a heading or quote with more elements than one block may hold before the parse', () => {
    expect(budgetRefusal(`# ${'<aa:b> '.repeat(25_000)}\n`)).toMatch(
      /^The review has one block of about 25,00\d elements, which cannot be cut .*; the limit is 20,000 \(1\.3× over\), so it was not shown\./,
    );
    expect(budgetRefusal(`> ${'a\\\n> '.repeat(25_000)}\n`)).toMatch(/one block of about 25,00\d elements/);
    expect(budgetRefusal('Plain prose, which the renderer cuts.\n'.repeat(25_000))).toBeUndefined();
  });

  it('refuses a table wider than the render allows before the parse', () => {
    expect(budgetRefusal(`|${'a|'.repeat(60_000)}\n|${'-|'.repeat(60_000)}\n`)).toMatch(
      /^The review has about 60,000 columns in one table; the limit is 256 \(234\.4× over\), so it was not shown\./,
    );
  });

  it.each(PATHOLOGICAL)('refuses %s, naming the limit and by how much', (_name, make, message) => {
    const excess = overBudget(measureReview(make()));
    expect(excess).toMatch(message);
  });

  it('refuses a page of HTML over its limit, whatever made it (10 MiB of "&" is 50 MiB escaped)', async () => {
    const page = renderReview('&'.repeat(10 * MiB), new ReferenceResolver([]));
    await expect(page).rejects.toBeInstanceOf(RenderBudgetError);
    await expect(page).rejects.toThrow(/page would be 50\.0 MiB of HTML; the limit is 48\.0 MiB \(1\.0× over\)/);
  });
});

describe('the cost budget, in the window', () => {
  let host: Host;
  let client: RawPeer;
  let calls = 0;

  beforeAll(async () => {
    host = await startHost({ durable: true });
    client = await RawPeer.connect(host.socketPath);
    expect(await client.hello(host.token)).toMatchObject({ result: {} });
  });
  afterAll(async () => {
    client.socket.destroy();
    await host.stop();
  });

  async function present(
    content: string,
    mode: ParamsOf<'present-review'>['mode'] = 'replace',
  ): Promise<WireReply<ResultOf<'present-review'>>> {
    return await client.request('present-review', { content, mode }, { id: `call-${++calls}` });
  }

  it.each(PATHOLOGICAL)(
    '%s: refused with the host alive, its thread and heap spared, the shown review kept',
    async (name, make, message) => {
      expect((await present('# Shown before\n\nsrc/example.ts:3\n')).result!.revision).toBeGreaterThan(0);
      const shown = host.store.current!;
      const content = make();
      const heapBefore = process.memoryUsage().heapUsed;
      let peakHeap = heapBefore;
      const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
      const stalls = monitorThreadHolds();
      stalls.enable();
      const reply = await present(content);
      stalls.disable();
      clearInterval(sampler);
      const longestStallMs = stalls.maxMs;
      process.stdout.write(
        `[budget] ${name}: longest stall ${longestStallMs.toFixed(0)} ms, peak heap +${((peakHeap - heapBefore) / MiB).toFixed(0)} MiB\n`,
      );
      expect(reply.error?.code).toBe(ErrorCode.TooLarge);
      expect(reply.error?.message).toMatch(message);
      expect(reply.error?.message).toContain('Split it into several reviews');
      // Not a timing test: parsing these would hold the thread for tens of seconds, and the refusal
      // costs far less; the bound is loose because jest's other workers share the machine's cores.
      expect(longestStallMs).toBeLessThan(1_000);
      expect(host.store.current).toBe(shown);
      expect((await present('# Still here\n')).result!.revision).toBe(shown.revision + 1);
    },
  );

  it("a large review the estimate lets through is refused by the render worker's own count, the shown review kept", async () => {
    const shown = host.store.current!;
    // 13,000 quotes 60 deep: the estimate sees 13,000 blocks; markdown-it makes 61 elements of each.
    const content = `${'> '.repeat(60)}a\n\n`.repeat(13_000);
    expect(budgetRefusal(content)).toBeUndefined();
    const reply = await present(content);
    expect(reply.error?.code).toBe(ErrorCode.TooLarge);
    expect(reply.error?.message).toMatch(
      /^The review has about 79\d,\d{3} elements in its page .*; the limit is 750,000 \(1\.1× over\).*, so it was not shown\. Split it into several reviews/,
    );
    expect(host.store.current).toBe(shown);
  });

  it('refuses an append that would put the review over budget, though each part is within it', async () => {
    const part = 'a\n\n'.repeat(REVIEW_BUDGET.blocks.limit * 0.6);
    const first = await present(part);
    expect(first.result!.revision).toBeGreaterThan(0);
    const second = await present(part, 'append');
    expect(second.error?.code).toBe(ErrorCode.TooLarge);
    expect(second.error?.message).toMatch(
      /^This append would make the review hold about 300,00\d blocks .*the limit is 250,000 \(1\.2× over\), so it was not applied\./,
    );
    expect(host.store.current!.revision).toBe(first.result!.revision);
  });
});
