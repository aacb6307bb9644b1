// Export and import through the real window (the harness) and the built command line: a review
// written as SARIF, rdjsonl and markdown with its findings where their code is now; a SARIF log
// opened as a review in another window, giving back every finding, its place, its state and its
// replies; bad and oversized logs refused with the reason, the review shown left as it was; and the
// SARIF form read as an MCP resource.

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as Sarif from 'sarif';
import { FINGERPRINT_KEY, RESULT_PROPERTY } from '../../shared/exchange/sarifExport';
import { EXPORT_PAGE_CHARS, ErrorCode, MAX_FINDINGS } from '../../shared/protocol';
import { IpcClient } from '../../mcp-server/src/ipcClient';
import { silentLogger } from '../../shared/logger';
import { assertBuilt, connectMcp, hostEnv, MCP_SERVER, startHost, type Host } from './harness';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built command line, as a user runs it in a terminal of the window. */
function cli(host: Host, args: readonly string[], cwd = host.workspace): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MCP_SERVER, ...args],
      { env: { PATH: process.env.PATH, ...hostEnv(host) }, cwd, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const REVIEW = [
  '# Review of example.ts',
  '',
  '- **bug**: `line3` is off by one in src/example.ts:3-4',
  '- nit: rename the constant at src/example.ts:10',
  '- **suggestion**: write src/example.ts:20 as a constant',
  '',
  '  ```suggestion',
  '  export const line20 = 20 as const;',
  '  ```',
  '- **risk**: src/missing.ts:3 is not in the workspace',
  '',
].join('\n');

const resultsOf = (text: string): Sarif.Result[] => (JSON.parse(text) as Sarif.Log).runs[0].results ?? [];

/** What a result says of its finding, without the parts that name the window (its id). */
function placeAndAnswers(result: Sarif.Result) {
  const region = result.locations![0].physicalLocation!.region!;
  return {
    uri: result.locations![0].physicalLocation!.artifactLocation!.uri,
    startLine: region.startLine,
    endLine: region.endLine,
    level: result.level,
    fingerprint: result.partialFingerprints![FINGERPRINT_KEY],
    state: result.properties![RESULT_PROPERTY.state],
    replies: result.properties![RESULT_PROPERTY.replies],
    suppressed: (result.suppressions ?? []).length > 0,
  };
}

describe('exporting and importing a review', () => {
  let host: Host;
  let dir: string;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost({ durable: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-exchange-'));
  });
  afterAll(async () => {
    await host?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says there is nothing to export, and writes nothing, before a review is shown', async () => {
    const out = path.join(dir, 'none.sarif');
    const run = await cli(host, ['export', '--format', 'sarif', '--output', out]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('The window shows no review to export; present one first. Nothing was written.'),
    });
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses an export without a format it knows, with the usage', async () => {
    for (const args of [['export'], ['export', '--format', 'xml'], ['export', 'file.sarif', '--format', 'sarif']]) {
      const run = await cli(host, args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^redline: .+\n\nUsage:/);
    }
  });

  it("writes each format with the findings where their code is now and the user's answers", async () => {
    const presented = await cli(host, ['present', writeReview(dir, REVIEW)]);
    expect(presented).toMatchObject({ code: 0, stdout: expect.stringContaining('broken: src/missing.ts:3') });
    const [bug, nit, suggestion] = await host.findings.current();
    // The user answers in the threads, then inserts two lines at the top of the file.
    await host.conversation.add({ kind: 'reply', findingId: bug.id, text: 'Fixed: the loop starts at 0 now.' });
    await host.conversation.add({ kind: 'state', findingId: bug.id, state: 'resolved' });
    await host.conversation.add({ kind: 'reply', findingId: nit.id, text: "The name is the API's." });
    await host.conversation.add({ kind: 'state', findingId: nit.id, state: 'wont-fix' });
    await host.conversation.add({ kind: 'state', findingId: suggestion.id, state: 'accepted' });
    const example = path.join(host.workspace, 'src/example.ts');
    fs.writeFileSync(example, `// header\n// header\n${fs.readFileSync(example, 'utf8')}`);

    const sarif = await cli(host, ['export', '--format', 'sarif']);
    expect(sarif).toMatchObject({ code: 0, stderr: '' });
    expect(resultsOf(sarif.stdout).map(placeAndAnswers)).toEqual([
      expect.objectContaining({
        uri: 'src/example.ts',
        startLine: 5,
        endLine: 6,
        level: 'error',
        state: 'resolved',
        suppressed: true,
        replies: [expect.objectContaining({ text: 'Fixed: the loop starts at 0 now.' })],
      }),
      expect.objectContaining({
        uri: 'src/example.ts',
        startLine: 12,
        endLine: 12,
        level: 'note',
        state: 'wont-fix',
        suppressed: true,
      }),
      expect.objectContaining({ uri: 'src/example.ts', startLine: 22, endLine: 22, state: 'accepted', replies: [] }),
    ]);

    const rdjsonl = path.join(dir, 'review.rdjsonl');
    const written = await cli(host, ['export', '--format', 'rdjsonl', '--output', rdjsonl]);
    expect(written).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `Exported revision 1 (3 findings) as rdjsonl to ${rdjsonl}.\n`,
    });
    const diagnostics = fs
      .readFileSync(rdjsonl, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(diagnostics.map((d) => [d.location.path, d.location.range.start.line, d.location.range.end.line])).toEqual([
      ['src/example.ts', 5, 6],
      ['src/example.ts', 12, 12],
      ['src/example.ts', 22, 22],
    ]);
    expect(diagnostics[2].suggestions).toEqual([
      expect.objectContaining({ text: expect.stringContaining('export const line20 = 20 as const;') }),
    ]);
    // Replaced whole, as any file the user makes: no temp file left beside it.
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('.tmp-'))).toEqual([]);

    const markdown = await cli(host, ['export', '--format', 'markdown']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('off by one');
    expect(markdown.stdout).toContain('Fixed: the loop starts at 0 now.');
  });

  it('opens the SARIF in another window with every finding, its place, its state and its replies', async () => {
    const log = path.join(dir, 'review.sarif');
    expect((await cli(host, ['export', '--format', 'sarif', '--output', log])).code).toBe(0);
    const exported = resultsOf(fs.readFileSync(log, 'utf8'));

    // Another window on the same code: a colleague's checkout.
    const other = await startHost({ durable: true, workspace: host.workspace });
    try {
      const opened = await cli(other, ['present', '--sarif', log]);
      expect(opened).toMatchObject({
        code: 0,
        stderr: '',
        stdout: 'Opened as revision 1: 3 findings. Restored 3 states and 2 replies, marked as imported.\n',
      });
      const findings = await other.findings.current();
      expect(findings.map((f) => [path.relative(other.workspace, f.file), f.line, f.endLine, f.state])).toEqual([
        ['src/example.ts', 5, 6, 'resolved'],
        ['src/example.ts', 12, 12, 'wont-fix'],
        ['src/example.ts', 22, 22, 'accepted'],
      ]);
      expect(other.conversation.repliesTo(findings[0].id).map((item) => item.text)).toEqual([
        'Fixed: the loop starts at 0 now.',
      ]);

      // Out again: the same findings, places, states, replies and fingerprints; the replies now say where they came from.
      const again = await cli(other, ['export', '--format', 'sarif']);
      const replyTexts = (answers: ReturnType<typeof placeAndAnswers>) => ({
        ...answers,
        replies: (answers.replies as Array<{ text: string; at: string }>).map(({ text, at }) => ({ text, at })),
      });
      expect(resultsOf(again.stdout).map(placeAndAnswers).map(replyTexts)).toEqual(
        exported.map(placeAndAnswers).map(replyTexts),
      );
      expect(resultsOf(again.stdout)[0].properties![RESULT_PROPERTY.replies]).toEqual([
        expect.objectContaining({
          source: 'import',
          origin: expect.stringMatching(/^imported from review\.sarif, written by Redline \d/),
        }),
      ]);

      // Opening the same log twice adds no reply twice.
      const twice = await cli(other, ['present', '--sarif', log]);
      expect(twice).toMatchObject({ code: 0, stdout: 'Opened as revision 2: 3 findings.\n' });
      expect(other.conversation.repliesTo(findings[0].id)).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it('refuses a bad, foreign, missing or oversized log with the reason, and the review shown stays', async () => {
    const before = host.store.current!;
    const feedback = host.conversation.since().items.length;
    const file = (name: string, content: string | Buffer) => {
      const target = path.join(dir, name);
      fs.writeFileSync(target, content);
      return target;
    };
    const cases: Array<[string, RegExp]> = [
      [path.join(dir, 'missing.sarif'), /Cannot read .*missing\.sarif: no such file\./],
      [dir, /rl-exchange-\w+ is a folder, not a regular file, so it is not read\./],
      [file('broken.sarif', '{"version": "2.1.0", "runs": ['), /is not JSON/],
      [file('other.json', JSON.stringify({ name: 'package', version: '1.0.0' })), /is not a SARIF log/],
      [file('old.sarif', JSON.stringify({ version: '1.0.0', runs: [] })), /Redline reads SARIF 2\.1\.0/],
      [file('binary.sarif', Buffer.from([0xff, 0xfe, 0x00, 0x41])), /is not UTF-8 text/],
      [file('costly.sarif', costlyLog()), /so it was not shown|Open a smaller log/],
    ];
    for (const [log, reason] of cases) {
      const run = await cli(host, ['present', '--sarif', log]);
      expect({ log, code: run.code, stdout: run.stdout }).toEqual({ log, code: 2, stdout: '' });
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).not.toContain('Usage:');
    }
    // Past the size a log may be: refused while it is read, before it is parsed.
    const huge = path.join(dir, 'huge.sarif');
    fs.writeFileSync(huge, Buffer.alloc(40 * 1024 * 1024 + 1, 0x20));
    const run = await cli(host, ['present', '--sarif', huge]);
    expect(run).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/huge\.sarif is larger than the 40 MiB a SARIF log may be/),
    });

    expect(host.store.current).toBe(before);
    expect(host.conversation.since().items).toHaveLength(feedback);
  });

  it('gives the SARIF form as a resource, listed beside the markdown', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      const listed = await mcp.client.listResources();
      expect(listed.resources.slice(0, 3).map((resource) => [resource.uri, resource.mimeType])).toEqual([
        ['redline://review/current', 'text/markdown'],
        ['redline://review/current.sarif', 'application/sarif+json'],
        ['redline://selection', 'application/json'],
      ]);
      const read = await mcp.client.readResource({ uri: 'redline://review/current.sarif' });
      expect(read.contents[0]).toMatchObject({
        uri: 'redline://review/current.sarif',
        mimeType: 'application/sarif+json',
      });
      const results = resultsOf((read.contents[0] as { text: string }).text);
      expect(results.map((result) => result.locations![0].physicalLocation!.region!.startLine)).toEqual([5, 12, 22]);
    } finally {
      await mcp.close();
    }
  });
});

describe('export-review and import-review on the bridge', () => {
  let host: Host;
  let client: IpcClient;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    client = new IpcClient({
      socketPath: host.socketPath,
      token: host.token,
      clientInfo: { name: 'exchange', version: '1' },
      retryDelaysMs: [],
      log: silentLogger,
    });
  });
  afterAll(async () => {
    await client?.dispose();
    await host?.stop();
  });

  it('answers a long export a page at a time, every page of the one export, and refuses a cursor it did not give', async () => {
    // Three megabytes of prose around a finding: the markdown export holds the whole review.
    const prose = 'A paragraph of the review that runs on for a while.\n\n'.repeat(60_000);
    await client.request('present-review', {
      content: `# Long\n\n- **bug**: src/example.ts:3\n\n${prose}`,
      mode: 'replace',
    });
    const pages = [await client.request('export-review', { format: 'markdown' })];
    while (pages.at(-1)!.nextCursor)
      pages.push(await client.request('export-review', { format: 'markdown', cursor: pages.at(-1)!.nextCursor }));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page.text.length).toBeLessThanOrEqual(EXPORT_PAGE_CHARS);
    const whole = pages.map((page) => page.text).join('');
    expect(whole.startsWith('# Long')).toBe(true);
    expect(whole).toContain(prose.trimEnd());
    expect(pages.map((page) => [page.revision, page.findings])).toEqual(pages.map(() => [1, 1]));

    // Read to its end, the export is let go; another assistant's cursor, or a made-up one, reads nothing.
    const first = await client.request('export-review', { format: 'markdown' });
    for (const [cursor, assistant] of [
      [pages[1].nextCursor ?? pages[0].nextCursor, undefined],
      [first.nextCursor, 'someone else'],
      ['x0000000000000000.c1', undefined],
    ] as const) {
      await expect(
        client.request('export-review', { format: 'markdown', cursor: cursor!, ...(assistant ? { assistant } : {}) }),
      ).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringContaining('Export again without a cursor.'),
      });
    }
  });

  it('refuses an import past what a review shows, and the review shown stays', async () => {
    const before = host.store.current;
    const finding = {
      fingerprint: 'f',
      file: 'src/example.ts',
      line: 1,
      endLine: 1,
      markdownLine: 1,
      state: 'open' as const,
      replies: [],
    };
    await expect(
      client.request('import-review', {
        markdown: '# Too many',
        findings: Array.from({ length: MAX_FINDINGS + 1 }, () => finding),
      }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining(`a review shows at most ${MAX_FINDINGS} findings`),
    });
    expect(host.store.current).toBe(before);
  });
  it('refuses an import whose log holds a result that is not one, before showing anything', async () => {
    const before = host.store.current;
    const log = { name: 'forged.sarif', tools: [{ name: 'Tool', rules: [] }], results: [{ tool: 7, state: 'open' }] };
    await expect(
      client.request('import-review', { markdown: '# Forged\n\n- **bug**: src/example.ts:3\n', findings: [], log }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('log.results[0]') });
    expect(host.store.current).toBe(before);
  });
});

/** The review's markdown in a file, for `present FILE`. */
function writeReview(dir: string, markdown: string): string {
  const file = path.join(dir, 'review.md');
  fs.writeFileSync(file, markdown);
  return file;
}

/**
 * A log whose review would cost more than the budget lets a review cost: a thousand results, each
 * a message of hundreds of short paragraphs, well under the size limit.
 */
function costlyLog(): string {
  const message = Array.from({ length: 300 }, (_, i) => `p${i}`).join('\n\n');
  const results = Array.from({ length: 1000 }, (_, i) => ({
    ruleId: 'no-unused-vars',
    level: 'warning',
    message: { markdown: message, text: message },
    locations: [
      { physicalLocation: { artifactLocation: { uri: 'src/example.ts' }, region: { startLine: (i % 50) + 1 } } },
    ],
  }));
  return JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'ESLint' } }, results }] });
}
