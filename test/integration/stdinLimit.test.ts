// The MCP server's stdin: a message over the limit is answered with an error for its id and the
// server stays up for the next one; bad JSON is answered too. The real built server, a raw pipe.

import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import { once } from 'events';
import { LineDecoder } from '../../shared/framing';
import { MAX_FRAME_BYTES } from '../../shared/protocol';
import { MAX_STDIN_MESSAGE_BYTES } from '../../mcp-server/src/stdioTransport';
import { assertBuilt, hostEnv, MCP_SERVER, startHost, type Host } from './harness';

/** The fields of the replies these tests read: initialize's, a tool call's and tools/list's. */
type ReplyResult = {
  serverInfo?: { name: string };
  isError?: boolean;
  structuredContent?: { revision?: number };
  tools?: unknown[];
};

class ServerProcess {
  readonly replies: Array<{ id?: unknown; result?: ReplyResult; error?: { code: number; message: string } }> = [];
  private waiting: Array<() => void> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    const decoder = new LineDecoder({ onLine: (line) => this.arrived(JSON.parse(line)) }, 128 * 1024 * 1024);
    child.stdout.on('data', (chunk: Buffer) => decoder.push(chunk));
  }

  /** Writes with backpressure, so a 64 MiB line does not sit in this process's memory twice. */
  async write(text: string): Promise<void> {
    if (!this.child.stdin.write(text)) await once(this.child.stdin, 'drain');
  }

  async reply(id: unknown): Promise<(typeof this.replies)[number]> {
    for (;;) {
      const found = this.replies.find((reply) => reply.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private arrived(reply: (typeof this.replies)[number]): void {
    this.replies.push(reply);
    for (const wake of this.waiting.splice(0)) wake();
  }
}

const line = (message: unknown) => JSON.stringify(message) + '\n';

describe('the MCP server on stdin', () => {
  let host: Host;
  let server: ServerProcess;

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
    const child = spawn(process.execPath, [MCP_SERVER], {
      cwd: host.workspace,
      env: { PATH: process.env.PATH, ...hostEnv(host) },
    });
    server = new ServerProcess(child);
    await server.write(
      line({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect((await server.reply(0)).result?.serverInfo?.name).toBe('redline');
    await server.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });

  afterAll(async () => {
    server.child.kill();
    await host.stop();
  });

  it('reads the largest message a review can make', () => {
    expect(MAX_STDIN_MESSAGE_BYTES).toBeGreaterThanOrEqual(MAX_FRAME_BYTES);
  });

  it('answers a message over the limit with an error for its id, then serves the next call', async () => {
    const head =
      '{"jsonrpc":"2.0","id":"too-big","method":"tools/call","params":{"name":"present-review","arguments":{"content":"';
    await server.write(head);
    const piece = 'x'.repeat(1024 * 1024);
    for (let sent = head.length; sent <= MAX_STDIN_MESSAGE_BYTES; sent += piece.length) await server.write(piece);
    await server.write('"}}}\n');
    await server.write(
      line({
        jsonrpc: '2.0',
        id: 'next',
        method: 'tools/call',
        params: { name: 'present-review', arguments: { content: '# After' } },
      }),
    );

    const refused = await server.reply('too-big');
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(
      /^Message too large: \d+ bytes, more than the \d+-byte limit\. Split the review/,
    );
    const next = await server.reply('next');
    expect(next.result?.isError).toBeFalsy();
    expect(next.result?.structuredContent?.revision).toBeGreaterThan(0);
    expect(host.store.current?.markdown).toBe('# After');
    expect(server.child.exitCode).toBeNull();
  });

  it('answers a line that is not JSON with a parse error, and stays up', async () => {
    await server.write('{"jsonrpc":"2.0","id":5,"method":\n');
    await server.write(line({ jsonrpc: '2.0', id: 6, method: 'tools/list' }));
    expect((await server.reply(null)).error?.code).toBe(-32700);
    expect((await server.reply(6)).result?.tools?.length).toBeGreaterThan(0);
  });
});
