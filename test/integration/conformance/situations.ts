// Where the conformance table's calls are made: each situation is a built server in a given state
// of its window, and the way a row's call is made there. The windows are shared by every client
// and row; each client has its own server per situation.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RUNTIME_DIR_ENV } from '../../../shared/environment';
import { hostEnv, startHost, type Host } from '../harness';
import { until } from '../../support/until';
import { HeldWindow } from './heldWindow';
import type { Connection, ConformanceClient, Outcome } from './clients';

/** The MCP server's limit on calls in flight (callLimit.ts), which the busy situation fills. */
export const CALLS_IN_FLIGHT = 64;
/** The timeout the timed-out situation's server is given for every tool; its window never answers. */
export const TIMEOUT_MS = 300;

export interface Situation {
  /** Which server the call goes to. */
  readonly server: 'host' | 'noWindow' | 'closedWindow' | 'wrongToken' | 'held' | 'heldWithTimeout';
  /** How the call is made, beyond a plain call. */
  readonly how?: 'busy' | 'cancel' | 'windowGoes';
  /** The rows' calls are made all at once: each waits out the server's retries or its timeout, and none depends on another. */
  readonly together?: true;
}

export const SITUATIONS = {
  /** The window as VS Code has it (the integration kit's host): what the window itself refuses. */
  'the window answers': { server: 'host' },
  /** No REDLINE_* variable and no discovery file: the first error a new user meets. */
  'no window': { server: 'noWindow', together: true },
  /** REDLINE_IPC_PATH names a socket nobody listens on any more. */
  'the window closed': { server: 'closedWindow', together: true },
  /** The window is there, but the token is not its own (rotated, or from another window). */
  'a token the window refuses': { server: 'wrongToken', together: true },
  'timed out': { server: 'heldWithTimeout', together: true },
  /** CALLS_IN_FLIGHT calls are held in the window while the row's call is made. */
  busy: { server: 'held', how: 'busy' },
  /** The client cancels once the window has the call. */
  cancelled: { server: 'held', how: 'cancel' },
  /** The window closes its socket once it has the call, then listens again. */
  'the window gone mid-call': { server: 'held', how: 'windowGoes' },
} as const satisfies Record<string, Situation>;

export type SituationName = keyof typeof SITUATIONS;

/** The windows every client's servers talk to. */
export class Windows {
  private readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-conf-'));

  private constructor(
    readonly host: Host,
    readonly held: HeldWindow,
  ) {}

  static async start(): Promise<Windows> {
    return new Windows(await startHost(), await HeldWindow.start());
  }

  /** Each server's environment: REDLINE_LOG quiet, and a runtime folder of its own, so that no window of this machine is discovered. */
  launch(server: Situation['server']): { env: Record<string, string>; cwd: string } {
    const runtime = fs.mkdtempSync(path.join(this.root, 'run-'));
    const isolated = { XDG_RUNTIME_DIR: runtime, TMPDIR: runtime, [RUNTIME_DIR_ENV]: runtime, REDLINE_LOG: 'error' };
    const held = { REDLINE_IPC_PATH: this.held.socketPath, REDLINE_IPC_TOKEN: this.held.token };
    switch (server) {
      case 'host':
        return { env: { ...hostEnv(this.host), ...isolated }, cwd: this.host.workspace };
      case 'noWindow':
        return { env: isolated, cwd: runtime };
      case 'closedWindow':
        return {
          env: { ...isolated, REDLINE_IPC_PATH: path.join(runtime, 'closed.sock'), REDLINE_IPC_TOKEN: 'x'.repeat(43) },
          cwd: this.host.workspace,
        };
      case 'wrongToken':
        return {
          env: { ...hostEnv(this.host), ...isolated, REDLINE_IPC_TOKEN: 'y'.repeat(43) },
          cwd: this.host.workspace,
        };
      case 'held':
        return { env: { ...isolated, ...held }, cwd: this.host.workspace };
      case 'heldWithTimeout':
        return { env: { ...isolated, ...held, REDLINE_TIMEOUT_MS: String(TIMEOUT_MS) }, cwd: this.host.workspace };
    }
  }

  async stop(): Promise<void> {
    await this.held.stop();
    await this.host.stop();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** One client's servers, one per kind, connected on first use. */
export class ClientServers {
  private readonly connections = new Map<Situation['server'], Promise<Connection>>();
  /** The calls that fill the limit while the busy rows run. */
  private filling: Promise<Outcome[]> | undefined;

  constructor(
    readonly client: ConformanceClient,
    private readonly windows: Windows,
  ) {}

  connection(server: Situation['server']): Promise<Connection> {
    let connection = this.connections.get(server);
    if (!connection) this.connections.set(server, (connection = this.client.connect(this.windows.launch(server))));
    return connection;
  }

  /** Makes one row's call in its situation. */
  async call(situation: Situation, tool: string, args: Record<string, unknown>): Promise<Outcome> {
    const connection = await this.connection(situation.server);
    const held = this.windows.held;
    switch (situation.how) {
      case undefined:
        return connection.call(tool, args);
      case 'busy':
        await this.fillTheLimit(connection);
        return connection.call(tool, args);
      case 'cancel': {
        const before = held.holding;
        return connection.callAndCancel(
          tool,
          args,
          until(() => held.holding > before, 'the held window to have the call', 20_000),
        );
      }
      case 'windowGoes': {
        const before = held.holding;
        const call = connection.call(tool, args);
        await until(() => held.holding > before, 'the held window to have the call', 20_000);
        await held.goAwayAndReturn();
        return call;
      }
    }
  }

  private async fillTheLimit(connection: Connection): Promise<void> {
    if (this.filling) return;
    const held = this.windows.held;
    const before = held.holding;
    this.filling = Promise.all(Array.from({ length: CALLS_IN_FLIGHT }, () => connection.call('get-selection', {})));
    await until(
      () => held.holding === before + CALLS_IN_FLIGHT,
      () => `${CALLS_IN_FLIGHT} calls held in the window (${held.holding - before} so far)`,
      30_000,
    );
  }

  /** Lets the held window answer everything, and waits for the calls that filled the limit: they must succeed. */
  async release(): Promise<Outcome[]> {
    this.windows.held.releaseAll();
    const filled = (await this.filling) ?? [];
    this.filling = undefined;
    return filled;
  }

  /** Every connection made so far, for the raw check. */
  async all(): Promise<Connection[]> {
    return Promise.all(this.connections.values());
  }

  async close(): Promise<void> {
    for (const connection of await this.all()) await connection.close();
    this.connections.clear();
  }
}
