// A window that opens on a stored review draws the findings' threads and Problems entries from
// the findings kept on disk, and renders nothing until the panel asks, since rendering a large
// review costs seconds. A missing, stale or bad file costs a render, never the findings.

import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FindingAnchors } from '../../extension/src/review/findingAnchors';
import { FindingsFile } from '../../extension/src/review/findingsFile';
import { ReviewFindings, type ShownFinding } from '../../extension/src/review/reviewFindings';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import { InThreadRenderEngine, type RenderEngine, type RenderJob } from '../../extension/src/render/renderJob';
import { Conversation } from '../../extension/src/review/conversation';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import { typicalReview, writeFixtureFiles } from '../../bench/reviewFixtures';
import { logTo } from '../support/loggedLines';

const TEN_MIB = 10 * 1024 * 1024 - 64 * 1024;

/** Counts the renders a window asks for. */
class CountingEngine implements RenderEngine {
  readonly jobs: RenderJob[] = [];
  private readonly engine = new InThreadRenderEngine();
  render(job: RenderJob) {
    this.jobs.push(job);
    return this.engine.render(job);
  }
  dispose() {}
}

describe('the findings of a stored review, at the next start', () => {
  let root: string;
  let reviews: string;
  let conversation: string;
  const warnings: string[] = [];

  /** One window's start on the folder: its store, its findings, and the renders it asked for. */
  async function start() {
    const store = await ReviewStore.open({
      directory: reviews,
      historySize: 10,
      log: logTo(warnings),
    });
    const engine = new CountingEngine();
    const renderer = new ReviewRenderer(() => [root], { engine });
    const kept = new FindingsFile(conversation, logTo(warnings));
    const findings = new ReviewFindings({
      store,
      renderer,
      conversation: Conversation.inMemory(),
      anchors: new FindingAnchors(),
      log: logTo(warnings),
      kept,
    });
    const published = new Promise<readonly ShownFinding[]>((resolve) => findings.onDidChange(resolve));
    const stop = async () => {
      await findings.dispose();
      await kept.idle();
      await store.dispose();
    };
    return { store, engine, findings, kept, published, stop };
  }

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'redline-stored-findings-'));
    reviews = path.join(root, '.state', 'reviews');
    conversation = path.join(root, '.state', 'conversation');
    writeFixtureFiles(root);
    // The first window: a 10 MiB review is presented, rendered once, and its findings kept.
    const first = await start();
    await first.store.present({ content: typicalReview(TEN_MIB), mode: 'replace', title: 'Ten MiB' });
    const shown = await first.published;
    expect(shown.length).toBeGreaterThan(100);
    expect(first.engine.jobs).toHaveLength(1);
    await first.stop();
  });

  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('shows the same findings without rendering the review', async () => {
    const expected = await readKept();
    const next = await start();
    try {
      const shown = await next.published;
      expect(shown.map((finding) => [finding.id, finding.file, finding.line, finding.title])).toEqual(
        expected.findings.map((finding: ShownFinding) => [finding.id, finding.file, finding.line, finding.title]),
      );
      expect(next.engine.jobs).toHaveLength(0);
      expect(warnings).toEqual([]);
    } finally {
      await next.stop();
    }
  });

  it('renders the review when the kept findings are of another revision', async () => {
    const kept = await readKept();
    await writeKept({ ...kept, revision: kept.revision + 1 });
    const next = await start();
    try {
      expect((await next.published).length).toBe(kept.findings.length);
      expect(next.engine.jobs).toHaveLength(1);
    } finally {
      await next.stop();
    }
    // That render kept its findings again, for the start after.
    expect((await readKept()).revision).toBe(kept.revision);
  });

  it('moves a bad file aside with a warning and renders instead', async () => {
    const kept = await readKept();
    await writeKept({ ...kept, findings: [{ ...kept.findings[0], line: -3 }] });
    warnings.length = 0;
    const next = await start();
    try {
      expect((await next.published).length).toBe(kept.findings.length);
      expect(next.engine.jobs).toHaveLength(1);
      expect(warnings.join('\n')).toMatch(/could not read the kept findings of the review;.* file=.*findings\.json/);
      expect((await fs.readdir(conversation)).some((name) => name.startsWith('findings.json.corrupt-'))).toBe(true);
    } finally {
      await next.stop();
    }
  });

  const readKept = async () => JSON.parse(await fs.readFile(path.join(conversation, 'findings.json'), 'utf8'));
  const writeKept = (value: unknown) => fs.writeFile(path.join(conversation, 'findings.json'), JSON.stringify(value));
});
