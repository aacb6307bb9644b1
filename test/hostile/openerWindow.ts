// A window whose open-location goes through the real LocationOpener, with the window's own roots
// and the vscode stub's consent question (test/unit/vscodeStub.ts), asked over its socket by a raw
// peer: what a containment attack meets. The test file must mock 'vscode' with that stub.

import { LocationOpener } from '../../extension/src/editor/locationOpener';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import type { Logger } from '../../shared/logger';
import { startHost, type Host } from '../integration/harness';
import type { Method, ParamsOf, ResultOf } from '../../shared/protocol';
import { RawPeer, type WireReply } from '../integration/rawPeer';

export class OpenerWindow {
  private requests = 0;

  private constructor(
    readonly host: Host,
    readonly renderer: ReviewRenderer,
    private readonly opener: LocationOpener,
    private readonly client: RawPeer,
  ) {}

  /** `rendererLog`: where the window's renderer tells what it did not believe. */
  static async start(
    options: Parameters<typeof startHost>[0] & { readonly rendererLog?: Logger } = {},
  ): Promise<OpenerWindow> {
    const { rendererLog, ...hostOptions } = options;
    const host = await startHost(hostOptions);
    const renderer = new ReviewRenderer(() => [host.workspace], { log: rendererLog });
    const opener = new LocationOpener(
      (cwd) => renderer.roots(cwd),
      () => undefined,
    );
    host.editor.openLocation = (reference, cwd) => opener.open(reference, cwd);
    const client = await RawPeer.connect(host.socketPath);
    const hello = await client.hello(host.token);
    if (!hello.result) throw new Error(`the window refused the peer: ${JSON.stringify(hello)}`);
    return new OpenerWindow(host, renderer, opener, client);
  }

  get workspace(): string {
    return this.host.workspace;
  }

  request<M extends Method>(method: M, params: ParamsOf<M>): Promise<WireReply<ResultOf<M>>> {
    return this.client.request(method, params, { id: `o${++this.requests}` });
  }

  async stop(): Promise<void> {
    this.client.socket.destroy();
    await this.opener.dispose();
    await this.renderer.dispose();
    await this.host.stop();
  }
}
