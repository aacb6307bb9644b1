// A model API on 127.0.0.1 that plays one part: a script of tool calls, made one after another,
// each once the one before has its result back and once the assistant offers a tool whose name
// matches; then it says it is done. Any other request (a title to generate, token counts) gets a
// short text. It records every request and every result, so a test sees what the assistant
// offered and what it sent back.

import * as http from 'http';
import type { AddressInfo } from 'net';
import {
  dialectOf,
  offeredTools,
  reply,
  toolResults,
  type Answer,
  type Dialect,
  type ToolResultSent,
} from './modelDialects';

export interface ModelRequest {
  readonly method: string;
  readonly path: string;
  readonly dialect?: Dialect;
  readonly tools: readonly string[];
}

export interface ToolCallStep {
  /** Which offered tool to call: the first whose name this matches. */
  readonly tool: RegExp;
  readonly args: Record<string, unknown>;
}

export interface FakeModelScript {
  readonly steps: readonly ToolCallStep[];
  /** What the model says once the last result is back. */
  readonly finalText?: string;
}

/** One call the model made: the name it went out under, and its result once the assistant sent it back. */
export interface ModelCall {
  readonly id: string;
  readonly name: string;
  result?: ToolResultSent;
}

export class FakeModel {
  readonly requests: ModelRequest[] = [];
  readonly calls: ModelCall[] = [];

  private constructor(
    private readonly server: http.Server,
    private readonly script: FakeModelScript,
  ) {}

  static async start(script: FakeModelScript): Promise<FakeModel> {
    const server = http.createServer();
    const model = new FakeModel(server, script);
    server.on('request', (request, response) => model.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return model;
  }

  /** http://127.0.0.1:<port>, no trailing slash. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** For a failure message: every request, one line each. */
  describe(): string {
    const requests = this.requests.map(
      (r) => `${r.method} ${r.path} [${r.dialect ?? '-'}] tools: ${r.tools.join(', ') || '(none)'}`,
    );
    const calls = this.calls.map((c) => `called ${c.name}: ${c.result ? c.result.text.slice(0, 2000) : '(no result)'}`);
    return [...requests, ...calls].join('\n') || '(no request)';
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const dialect = dialectOf(path);
      let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = {};
      }
      const tools = dialect ? offeredTools(dialect, body) : [];
      this.requests.push({ method: request.method ?? 'GET', path, dialect, tools });
      if (!dialect) return this.answerOther(path, response);

      const answer = this.answer(dialect, body, tools);
      const stream = body.stream === true || /streamGenerateContent/i.test(path);
      const { contentType, body: text } = reply(
        dialect,
        answer,
        String(body.model ?? /models\/([^:]+)/.exec(path)?.[1] ?? 'fake-model'),
        stream,
      );
      response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
      response.end(text);
    });
  }

  /** The result of the last call, once it is back. */
  get result(): ToolResultSent | undefined {
    return this.calls[this.calls.length - 1]?.result;
  }

  private answer(dialect: Dialect, body: unknown, tools: readonly string[]): Answer {
    const results = toolResults(dialect, body);
    for (const call of this.calls) {
      // By the call's id where the API carries it back; Gemini's may carry only the name.
      call.result ??=
        results.find((r) => r.id === call.id) ?? results.find((r) => r.id === undefined && r.name === call.name);
    }
    const last = this.calls[this.calls.length - 1];
    if (last && !last.result) return { text: 'OK.' };
    const step = this.script.steps[this.calls.length];
    if (!step) return { text: last ? (this.script.finalText ?? 'The review is in the editor.') : 'OK.' };
    const name = tools.find((tool) => step.tool.test(tool));
    if (!name) return { text: 'OK.' };
    const call = { id: `call_${this.calls.length}_${Math.random().toString(36).slice(2, 10)}`, name };
    this.calls.push(call);
    return { call: { ...call, args: step.args } };
  }

  /** Token counts and model lists, which some assistants ask for on the side. */
  private answerOther(path: string, response: http.ServerResponse): void {
    const body = /count_?tokens/i.test(path)
      ? { input_tokens: 10, totalTokens: 10 }
      : /models/.test(path)
        ? { data: [], models: [] }
        : {};
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }
}
