// One review per assistant: which folder is whose, the first assistant's claim on the folders a
// window always had, the limit, and the list on disk treated as untrusted.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AssistantIndex, INDEX_FILE, MAX_ASSISTANTS } from '../../extension/src/review/assistantIndex';
import { AssistantReviews } from '../../extension/src/review/assistantReviews';
import { ReviewStore } from '../../extension/src/review/reviewStore';
import type { ReviewFindings } from '../../extension/src/review/reviewFindings';
import { silentLogger, type Logger } from '../../shared/logger';
import { logTo } from '../support/loggedLines';

const renderer = { render: jest.fn(), renderFragment: jest.fn() };

function open(root: string | undefined, log: Logger = silentLogger, maxHistoryBytes?: number) {
  return AssistantReviews.open({
    root,
    historySize: 5,
    maxHistoryBytes,
    log,
    renderer,
    attachFindings: () => ({ findings: { dispose: () => undefined } as unknown as ReviewFindings }),
  });
}

describe('AssistantReviews', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-assistants-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("gives the first assistant the window's own folders and each other one a folder of its own", async () => {
    const reviews = await open(root);
    try {
      const claude = await reviews.forAssistant('Claude Code');
      const codex = await reviews.forAssistant('codex');
      expect(claude).toBe(reviews.primary);
      expect(codex).not.toBe(claude);
      await claude.store.present({ content: '# one', mode: 'replace', assistant: 'Claude Code' });
      await codex.store.present({ content: '# two', mode: 'replace', assistant: 'codex' });
      expect(fs.existsSync(path.join(root, 'reviews', 'current.json'))).toBe(true);
      expect(fs.readdirSync(path.join(root, 'assistants'))).toEqual([expect.stringMatching(/^codex-[0-9a-f]{12}$/)]);
      // Calls without a name (an older MCP server) are the first assistant's.
      expect(reviews.existing(undefined)).toBe(claude);
      expect(reviews.lookup('codex')).toBe(codex);
      expect(reviews.lookup('never-presented')).toBeUndefined();
    } finally {
      await reviews.dispose();
    }
  });

  it("keeps every assistant's earlier reviews within one budget, dropping the oldest first whoever's they are", async () => {
    const logs: string[] = [];
    const reviews = await open(root, logTo(logs), 4_500);
    const drops: number[] = [];
    reviews.onDidDropHistory((drop) => drops.push(drop.count));
    try {
      const claude = await reviews.forAssistant('Claude Code');
      const codex = await reviews.forAssistant('codex');
      const body = 'x'.repeat(990);
      // Earlier reviews of about 1,000 bytes each, made in turn: codex 1, claude 1, codex 2, claude 2.
      for (const round of [1, 2, 3]) {
        await codex.store.present({ content: `# codex ${round}\n\n${body}`, mode: 'replace' });
        await claude.store.present({ content: `# claude ${round}\n\n${body}`, mode: 'replace' });
      }
      expect((await claude.store.listHistory()).map((entry) => entry.title ?? entry.revision)).toHaveLength(2);
      expect((await codex.store.listHistory()).length).toBe(2);
      await claude.store.present({ content: `# claude 4\n\n${body}`, mode: 'replace' });
      // Five would pass 4,500 bytes: codex's first, the oldest of all, went.
      const texts = async (review: typeof claude) =>
        Promise.all(
          (await review.store.listHistory()).map(
            async (entry) => (await review.store.readHistory(entry.revision))!.markdown.split('\n')[0],
          ),
        );
      expect(await texts(claude)).toEqual(['# claude 3', '# claude 2', '# claude 1']);
      expect(await texts(codex)).toEqual(['# codex 2']);
      expect(drops.length).toBeGreaterThan(0);
      expect(logs.at(-1)).toMatch(
        /dropped the 1 oldest earlier review\(s\) .*in this workspace would hold more than \d+\.\d KiB\./,
      );
      await codex.store.flush();
      // Its file went too: codex 2, and the current codex 3.
      expect(fs.readdirSync(path.join(root, codex.key, 'reviews')).filter((name) => name.endsWith('.md'))).toHaveLength(
        2,
      );
    } finally {
      await reviews.dispose();
    }
  });

  it('makes one review for two first calls at once', async () => {
    const reviews = await open(root);
    try {
      await reviews.forAssistant('first');
      const [a, b] = await Promise.all([reviews.forAssistant('second'), reviews.forAssistant('second')]);
      expect(a).toBe(b);
      expect(reviews.all).toHaveLength(2);
    } finally {
      await reviews.dispose();
    }
  });

  it('brings a replaced review to the front, and lets the user pick another', async () => {
    const reviews = await open(undefined);
    try {
      const first = await reviews.forAssistant('first');
      const second = await reviews.forAssistant('second');
      const shown: string[] = [];
      reviews.onDidChangeActive((review) => shown.push(review.label));
      await second.store.present({ content: '# b', mode: 'replace' });
      await first.store.present({ content: '# a', mode: 'replace' });
      await first.store.present({ content: 'more', mode: 'append' });
      expect(shown).toEqual(['second', 'first']);
      expect(reviews.select(second.key)).toBe(true);
      expect(reviews.select('assistants/nobody')).toBe(false);
      expect(reviews.active).toBe(second);
    } finally {
      await reviews.dispose();
    }
  });

  it(`refuses a ${MAX_ASSISTANTS + 1}th assistant with a message that names the others`, async () => {
    const reviews = await open(undefined);
    try {
      for (let i = 0; i < MAX_ASSISTANTS; i++) await reviews.forAssistant(`assistant-${i}`);
      await expect(reviews.forAssistant('one-too-many')).rejects.toThrow(
        /at most 16 assistants .*assistant-0, assistant-1/,
      );
    } finally {
      await reviews.dispose();
    }
  });

  it("takes the first assistant's name from its review when the window had no list yet", async () => {
    const store = await ReviewStore.open({ directory: path.join(root, 'reviews'), historySize: 5 });
    await store.present({ content: '# from before', mode: 'replace', assistant: 'claude-code' });
    await store.dispose();
    const reviews = await open(root);
    try {
      expect(reviews.primary.name).toBe('claude-code');
      expect(await reviews.forAssistant('claude-code')).toBe(reviews.primary);
      expect(await reviews.forAssistant('codex')).not.toBe(reviews.primary);
    } finally {
      await reviews.dispose();
    }
  });

  it('moves a bad list aside and starts without it, never reading a folder it did not name', async () => {
    fs.writeFileSync(
      path.join(root, INDEX_FILE),
      JSON.stringify({ version: 1, assistants: [{ name: 'evil', dir: '../../etc' }] }),
    );
    const warnings: string[] = [];
    const reviews = await open(root, logTo(warnings));
    try {
      expect(reviews.all.map((review) => review.name)).toEqual([undefined]);
      expect(warnings.join('\n')).toMatch(/could not read the list of assistants; it moved it aside/);
      expect(fs.readdirSync(root).some((name) => name.startsWith(`${INDEX_FILE}.corrupt-`))).toBe(true);
    } finally {
      await reviews.dispose();
    }
  });
});

describe('AssistantIndex.dirFor', () => {
  it('names a folder readably, and two names that read alike apart', () => {
    expect(AssistantIndex.dirFor('Claude Code')).toMatch(/^assistants\/claude-code-[0-9a-f]{12}$/);
    expect(AssistantIndex.dirFor('claude code')).not.toBe(AssistantIndex.dirFor('Claude Code'));
    expect(AssistantIndex.dirFor('../../..')).toMatch(/^assistants\/assistant-[0-9a-f]{12}$/);
    expect(AssistantIndex.dirFor('x'.repeat(200)).length).toBeLessThanOrEqual('assistants/'.length + 64);
  });
});
