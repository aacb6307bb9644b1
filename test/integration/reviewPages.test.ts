// get-review of the largest review there can be, read back through the built server by the SDK's
// client as assistants embed it (its default read buffer): every reply is one line under the
// strictest client's limit (Codex CLI drops a line over 8 MiB), and the pages join into the review.

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Readable } from 'stream';
import { Exit, runCli } from '../../mcp-server/src/cli';
import { MAX_FEEDBACK_TEXT, MAX_REVIEW_BYTES, MAX_SECTION_CHARS } from '../../shared/protocol';
import { until } from '../support/until';
import { assertBuilt, callTool, hostEnv, MCP_SERVER, startHost, type Host, type ToolResult } from './harness';

/** Codex CLI's MAX_MCP_STDIO_LINE_BYTES: the smallest line limit of the clients Redline is tested with. */
const STRICTEST_LINE_BYTES = 8 * 1024 * 1024;

/** Every C0 control character a line can hold (not tab, newline or carriage return): JSON writes each as six bytes. */
const CONTROLS = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code))
  .filter((char) => !'\0\t\n\r'.includes(char))
  .join('');

/** MAX_REVIEW_BYTES exactly: a heading, then lines of 4,095 control characters. */
function controlCharacterReview(): string {
  const line = CONTROLS.repeat(Math.ceil(4095 / CONTROLS.length)).slice(0, 4095) + '\n';
  const head = '# Control characters\n\n';
  const body = line.repeat(Math.ceil((MAX_REVIEW_BYTES - head.length) / line.length));
  return (head + body).slice(0, MAX_REVIEW_BYTES);
}

/** `get-review` of the command line, run in this process against the host; what it printed. */
async function runGetReview(host: Host, options: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await runCli({
    argv: ['get-review', ...options],
    env: hostEnv(host),
    cwd: host.workspace,
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
    stdin: Readable.from([]),
  });
  expect({ code, err }).toEqual({ code: Exit.ok, err: '' });
  return out;
}

describe('get-review of a 10 MiB review of control characters', () => {
  let host: Host;
  let client: Client;
  let transport: StdioClientTransport;
  /** The size of each line the server wrote, as it wrote it (JSON.stringify, then a newline). */
  const lineBytes: number[] = [];
  let serverLog = '';
  const call = (args: Record<string, unknown>) => callTool(client, 'get-review', args);

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    // No maxBufferSize: the SDK's own default, as an assistant that embeds the SDK has it.
    // Debug logging: the server's stderr says when each request to the window was answered.
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_SERVER],
      env: { PATH: process.env.PATH ?? '', REDLINE_LOG: 'debug', ...hostEnv(host) },
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
    client = new Client({ name: 'redline-pages', version: '1.0.0' });
    await client.connect(transport);
    const receive = transport.onmessage!;
    transport.onmessage = (message) => {
      lineBytes.push(Buffer.byteLength(JSON.stringify(message), 'utf8') + 1);
      receive(message);
    };
  });
  afterAll(async () => {
    await client?.close();
    await host?.stop();
  });

  it('comes back page by page, each reply a line under 8 MiB, and the pages join into the review', async () => {
    const review = controlCharacterReview();
    expect(Buffer.byteLength(review)).toBe(MAX_REVIEW_BYTES);
    const presented = (await client.callTool(
      { name: 'present-review', arguments: { content: review } },
      { timeout: 120_000 },
    )) as ToolResult<'present-review'>;
    expect(presented.isError).toBeFalsy();

    lineBytes.length = 0;
    const pages: ToolResult<'get-review'>[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(cursor === undefined ? {} : { cursor });
      expect(page.isError).toBeFalsy();
      pages.push(page);
      cursor = page.structuredContent!.nextCursor;
    } while (cursor !== undefined && pages.length < 1000);

    expect(pages.map((page) => page.structuredContent!.markdown).join('')).toBe(review);
    expect(pages.length).toBeGreaterThan(1);
    // The lines of one page follow on from the last, with the heading on the first.
    const first = pages[0].structuredContent!;
    const totalLines = review.split('\n').length - (review.endsWith('\n') ? 1 : 0);
    expect(first.page).toMatchObject({ fromLine: 1, totalLines });
    expect(first.sections).toEqual([{ level: 1, title: 'Control characters', line: 1 }]);
    for (let i = 1; i < pages.length; i++)
      expect(pages[i].structuredContent!.page!.fromLine).toBe(pages[i - 1].structuredContent!.page!.toLine! + 1);
    expect(pages[0].content[0].text).toMatch(
      new RegExp(`^Revision \\d+, lines 1-\\d+ of ${totalLines}:\n\n# Control characters\n`),
    );
    expect(pages[0].structuredContent!.nextSteps).toEqual([
      expect.stringContaining(`Call get-review with cursor "${first.nextCursor}"`),
    ]);

    const largest = Math.max(...lineBytes);
    expect(lineBytes.length).toBe(pages.length);
    expect(largest).toBeLessThan(STRICTEST_LINE_BYTES);
    process.stdout.write(
      `get-review of a ${MAX_REVIEW_BYTES}-byte control-character review: ${pages.length} pages, largest line ${largest} bytes\n`,
    );

    // The command line joins the pages: the markdown as it was, or all of it as JSON.
    const printed = await runGetReview(host, []);
    expect(printed).toBe(review.endsWith('\n') ? review : `${review}\n`);
    const json = JSON.parse(await runGetReview(host, ['--json']));
    expect(json.markdown).toBe(review);
    expect(json.sections).toEqual(first.sections);
    expect(json).not.toHaveProperty('nextCursor');
    expect(json).not.toHaveProperty('page');

    // A resource is read in one reply: the review as a resource is refused with what to do, and the connection stays.
    const resource = client.readResource({ uri: 'redline://review/current' });
    await expect(resource).rejects.toThrow(
      /redline:\/\/review\/current is too large to read in one piece \(\d+ bytes as JSON, more than 6291456\)\. The get-review tool reads the current review in pages\./,
    );
    expect((await call({})).structuredContent!.page!.fromLine).toBe(1);
  });

  it('refuses a cursor it did not give, and one of an earlier revision, saying what to do', async () => {
    for (const cursor of ['next', 'r1.m99999999.f0', 'r1.m0.f99999']) {
      const result = await call({ cursor });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toBe(
        `"${cursor}" is not a cursor get-review gave. Pass the "nextCursor" of your last get-review result as it was, or call get-review without a cursor to read the review from its first page.`,
      );
    }
    const { nextCursor, revision } = (await call({})).structuredContent!;
    await client.callTool({ name: 'present-review', arguments: { content: '# Replaced\n' } });
    const stale = await call({ cursor: nextCursor });
    expect(stale.isError).toBe(true);
    expect(stale.content[0].text).toBe(
      `That cursor is for revision ${revision} of your review, which is now revision ${revision + 1}. Call get-review without a cursor to read it again from its first page.`,
    );
    const whole = await call({});
    expect(whole.structuredContent).toMatchObject({
      markdown: '# Replaced\n',
      page: { fromLine: 1, toLine: 1, totalLines: 1 },
    });
    expect(whole.structuredContent!.nextCursor).toBeUndefined();
    expect(whole.content[0].text).toBe(`Revision ${revision + 1}:\n\n# Replaced\n`);
  });

  it('gives a large backlog of feedback in answers under 8 MiB, each read once, and await-review-feedback reads on from them', async () => {
    const conversation = host.reviews.lookup('redline-pages')!.conversation;
    const start = (await client.callTool({ name: 'get-review-feedback', arguments: {} })).structuredContent as {
      cursor: string;
    };
    const texts = Array.from({ length: 300 }, (_, i) =>
      `${i} ${CONTROLS.repeat(Math.ceil(MAX_FEEDBACK_TEXT / CONTROLS.length))}`.slice(0, MAX_FEEDBACK_TEXT),
    );
    for (const text of texts) await conversation.add({ kind: 'message', text });

    lineBytes.length = 0;
    const read: Array<string | undefined> = [];
    let since = start.cursor;
    for (let more = true; more;) {
      const answer = await callTool(client, 'get-review-feedback', { since });
      expect(answer.isError).toBeFalsy();
      read.push(...answer.structuredContent!.items.map((item) => item.text));
      since = answer.structuredContent!.cursor;
      more = answer.structuredContent!.more === true;
      if (more)
        expect(answer.structuredContent!.nextSteps).toEqual([
          `More feedback is waiting than one answer holds: call get-review-feedback with "${since}" as "since" to read on.`,
        ]);
    }
    expect(read).toEqual(texts);
    expect(lineBytes.length).toBeGreaterThan(1);
    expect(Math.max(...lineBytes)).toBeLessThan(STRICTEST_LINE_BYTES);
    process.stdout.write(
      `get-review-feedback of 300 items of ${MAX_FEEDBACK_TEXT} control characters: ${lineBytes.length} answers, largest line ${Math.max(...lineBytes)} bytes\n`,
    );

    // Without a cursor, await-review-feedback waits for what comes after all 300, however many
    // answers they take: once it has read past them (and found nothing newer), one more arrives.
    const answers = lineBytes.length;
    const replies = () => serverLog.match(/"event":"reply"[^\n]*"method":"get-review-feedback"/g)?.length ?? 0;
    const before = replies();
    const waiting = callTool(client, 'await-review-feedback', { timeoutSeconds: 60 });
    await until(() => replies() >= before + answers + 1, 'the window to answer every get-review-feedback call');
    await conversation.add({ kind: 'message', text: 'after the backlog' });
    const awaited = (await waiting).structuredContent!;
    expect(awaited.items.map((item) => item.text)).toEqual(['after the backlog']);
  });

  it("cuts a heading's title in present-review's reply and in get-review to what update-section takes", async () => {
    const heading = CONTROLS.repeat(Math.ceil(2_000_000 / CONTROLS.length));
    lineBytes.length = 0;
    const presented = (await client.callTool(
      { name: 'present-review', arguments: { content: `# ${heading}\n\nbody\n` } },
      { timeout: 120_000 },
    )) as ToolResult<'present-review'>;
    expect(presented.isError).toBeFalsy();
    const [section] = presented.structuredContent!.sections;
    expect(section.title).toHaveLength(MAX_SECTION_CHARS);
    expect(section.title.endsWith('…')).toBe(true);
    expect((await call({})).structuredContent!.sections).toEqual([section]);
    expect(Math.max(...lineBytes)).toBeLessThan(STRICTEST_LINE_BYTES);
  });
});
