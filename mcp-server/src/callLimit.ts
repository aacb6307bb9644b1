// At most MAX_CALLS_IN_FLIGHT tool calls of one MCP session run at once. The window limits each
// socket too (64 running, then a queue), but a queue only makes a flooding assistant wait longer;
// here the call past the limit is answered at once, as a tool error the assistant can act on.
// A stdio server has one session, so the limit is the server's.

import type { McpServer, CallToolResult } from '@modelcontextprotocol/server';
import type { Logger } from '../../shared/logger';
import { ErrorCode } from '../../shared/protocol';
import { errorResult } from './tools/resultHints';

export const MAX_CALLS_IN_FLIGHT = 64;

export class CallsInFlight {
  private running = 0;

  constructor(
    private readonly log: Logger,
    readonly max = MAX_CALLS_IN_FLIGHT,
  ) {}

  get count(): number {
    return this.running;
  }

  /** Runs the call when a slot is free; otherwise answers that the server is busy, without running it. */
  async run(tool: string, call: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
    if (this.running >= this.max) {
      this.log.warn('busy', { tool, inFlight: this.running });
      return errorResult(
        ErrorCode.Busy,
        `Redline is busy with ${this.running} calls from this assistant, its limit; ${tool} was not run. Retry it when some of them have answered.`,
      );
    }
    this.running++;
    try {
      // A cancelled call holds its slot until its callback returns, which every tool does at once on cancel.
      return await call();
    } finally {
      this.running--;
    }
  }
}

/**
 * Puts every tool registered on `server` from now on behind `limit`. Done once, where the server is
 * made, so that no tool (nor one added later) can forget it.
 */
export function limitToolCalls(server: McpServer, limit: CallsInFlight): CallsInFlight {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: unknown,
    callback: ToolCallback,
  ) => ReturnType<McpServer['registerTool']>;
  const limited = (name: string, config: unknown, callback: ToolCallback) =>
    register(name, config, (...args) => limit.run(name, () => callback(...args)));
  server.registerTool = limited as unknown as McpServer['registerTool'];
  return limit;
}

type ToolCallback = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;
