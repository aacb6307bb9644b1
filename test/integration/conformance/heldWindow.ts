// A window that holds every request until the test lets it go, for the conformance table's paths
// that need a call in flight: busy, timed out, cancelled, the window gone mid-call. It answers
// what the kit's simple handlers answer once released, and can go away and come back on the same
// socket and token, as a reloaded window does.

import * as fs from 'fs';
import type { RequestHandlers } from '../../../extension/src/ipc/requestContract';
import { IpcServer } from '../../../extension/src/ipc/ipcServer';
import { createToken } from '../../../extension/src/ipc/token';
import { methodNames } from '../../../shared/protocol';
import { simpleHandlers, tempSocketPath } from '../ipcKit';

export class HeldWindow {
  private constructor(
    private server: IpcServer,
    /** One release per request received and not yet answered. */
    private readonly held: Array<() => void>,
    private readonly handlers: RequestHandlers,
    private readonly dir: string,
    readonly socketPath: string,
    readonly token: string,
  ) {}

  static async start(): Promise<HeldWindow> {
    const { dir, socketPath } = tempSocketPath();
    const token = createToken();
    const held: Array<() => void> = [];
    const handlers = Object.fromEntries(
      methodNames.map((method) => [
        method,
        async (params: unknown, context: unknown) => {
          await new Promise<void>((release) => held.push(release));
          return (simpleHandlers[method] as (p: unknown, c: unknown) => unknown)(params, context);
        },
      ]),
    ) as unknown as RequestHandlers;
    return new HeldWindow(await listen(socketPath, token, handlers), held, handlers, dir, socketPath, token);
  }

  /** How many requests the window holds now. */
  get holding(): number {
    return this.held.length;
  }

  /** Answers every request held. */
  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }

  /** Closes the socket under every connection, as a closed or reloaded window does, then listens again. */
  async goAwayAndReturn(): Promise<void> {
    await this.server.dispose();
    // What the closed connections held has no one to answer to.
    this.held.splice(0);
    this.server = await listen(this.socketPath, this.token, this.handlers);
  }

  async stop(): Promise<void> {
    this.releaseAll();
    await this.server.dispose();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function listen(socketPath: string, token: string, handlers: RequestHandlers): Promise<IpcServer> {
  return IpcServer.start({
    socketPath,
    token,
    handlers,
    serverInfo: { name: 'redline', version: 'test', pid: process.pid },
  });
}
