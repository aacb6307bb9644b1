// A window that holds every request until the test lets it go, for the conformance table's paths
// that need a call in flight: busy, timed out, cancelled, the window gone mid-call. It answers
// what the kit's simple handlers answer once released, and can go away and come back on the same
// socket and token, as a reloaded window does.

import type { RequestHandlers } from '../../../extension/src/ipc/ipcConnection';
import { IpcServer } from '../../../extension/src/ipc/ipcServer';
import { createToken } from '../../../extension/src/ipc/token';
import { methodNames, type Method } from '../../../shared/protocol';
import { simpleHandlers, tempSocketPath } from '../ipcKit';
import * as fs from 'fs';

export class HeldWindow {
  /** Requests the window has received and not yet answered, by method. */
  private readonly held: Array<{ method: Method; release: () => void }> = [];

  private constructor(
    private server: IpcServer,
    private readonly dir: string,
    readonly socketPath: string,
    readonly token: string,
  ) {}

  static async start(): Promise<HeldWindow> {
    const { dir, socketPath } = tempSocketPath();
    const token = createToken();
    let window: HeldWindow | undefined;
    const handlers = Object.fromEntries(
      methodNames.map((method) => [
        method,
        async (params: unknown, context: unknown) => {
          await new Promise<void>((release) => window!.held.push({ method, release }));
          return (simpleHandlers[method] as (p: unknown, c: unknown) => unknown)(params, context);
        },
      ]),
    ) as unknown as RequestHandlers;
    const server = await HeldWindow.listen(socketPath, token, handlers);
    window = new HeldWindow(server, dir, socketPath, token);
    window.handlers = handlers;
    return window;
  }

  private handlers!: RequestHandlers;

  private static listen(socketPath: string, token: string, handlers: RequestHandlers): Promise<IpcServer> {
    return IpcServer.start({ socketPath, token, handlers, serverInfo: { name: 'redline', version: 'test', pid: process.pid }, log: () => undefined });
  }

  /** How many requests the window holds now. */
  get holding(): number {
    return this.held.length;
  }

  /** Answers every request held. */
  releaseAll(): void {
    for (const { release } of this.held.splice(0)) release();
  }

  /** Closes the socket under every connection, as a closed or reloaded window does, then listens again. */
  async goAwayAndReturn(): Promise<void> {
    await this.server.dispose();
    this.held.splice(0);
    this.server = await HeldWindow.listen(this.socketPath, this.token, this.handlers);
  }

  async stop(): Promise<void> {
    this.releaseAll();
    await this.server.dispose();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
