// The built MCP server (dist/mcp-server.js) over stdio, spoken to line by line: for tests of what a
// client sees byte for byte, below any SDK client.

import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { NO_DISCOVERY_DEFAULT } from '../support/discoveryEnv';

const BUILT_SERVER = path.resolve(__dirname, '../../dist/mcp-server.js');

/**
 * The tools the server publishes, sorted: what a client's tools/list must name, no more. In a JSON
 * file, so that the suite in a real VS Code (test/e2e/suite, plain JavaScript) holds it too.
 */
export const PUBLISHED_TOOLS: readonly string[] = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'publishedTools.json'), 'utf8'),
);

/** A JSON-RPC reply from the server; `T`, its result where the test knows what was asked. */
export type Reply<T = unknown> = { id?: string | number; result?: T; error?: { code: number; message: string } };

/** A tools/call result as the tests read it: the server's tools answer in text. */
export type ToolText = { isError?: boolean; content: Array<{ type: string; text: string }> };

/** The built server over stdio, spoken to line by line. */
export class BuiltServer {
  readonly replies: Reply[] = [];
  readonly exited: Promise<number | null>;
  /** Resolves when the server has logged that it started (its signal handlers are in place). */
  readonly started: Promise<void>;
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private buffered = '';
  private waiters: Array<() => void> = [];

  constructor(env: Record<string, string> = {}) {
    if (!fs.existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run "npm run build" first.`);
    // With debug logging, so that the "started" line says when its signal handlers are in place.
    this.child = spawn(process.execPath, [BUILT_SERVER], {
      env: { PATH: process.env.PATH ?? '', REDLINE_LOG: 'debug', ...NO_DISCOVERY_DEFAULT, ...env },
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const lines = (this.buffered + chunk).split('\n');
      this.buffered = lines.pop()!;
      for (const line of lines) this.replies.push(JSON.parse(line));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.started = new Promise((resolve) => {
      this.child.stderr.on('data', (chunk: Buffer) => {
        this.stderr += chunk.toString();
        if (this.stderr.includes('"event":"started"')) resolve();
      });
    });
  }

  send(...messages: object[]): void {
    this.child.stdin.write(messages.map((m) => JSON.stringify(m) + '\n').join(''));
  }

  /** Resolves once `count` replies have arrived. */
  async waitForReplies(count: number): Promise<Reply[]> {
    while (this.replies.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${this.replies.length} of ${count} replies: ${JSON.stringify(this.replies)}`)),
          10_000,
        );
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.replies;
  }

  /** Closes the client's end of the server's stdout, as a client that stops reading and goes away. */
  closeOutput(): void {
    this.child.stdout.destroy();
  }

  endInput(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(signal: NodeJS.Signals): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}
