// The request's `cwd` comes from whoever holds the token, and nothing vouches for it. It may say
// where relative references start, inside the workspace, and nothing more: `cwd: "/"` must neither
// make the rest of the disk "inside" (open without asking) nor turn the reference report into an
// oracle for which files exist and how long they are.

import * as fs from 'fs';
import * as path from 'path';
import { OUTSIDE_ROOTS } from '../../extension/src/render/referenceResolver';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';
import type { ResultOf } from '../../shared/protocol';
import { startHost, type Host } from '../integration/harness';
import { RawPeer, type WireReply } from '../integration/rawPeer';

describe("the request's cwd", () => {
  it('leads the search only when it lies inside a workspace folder', () => {
    const renderer = new ReviewRenderer(() => ['/ws/app', '/ws/lib']);
    expect(renderer.roots('/ws/app/packages/core')).toEqual(['/ws/app/packages/core', '/ws/app', '/ws/lib']);
    expect(renderer.roots('/ws/lib')).toEqual(['/ws/lib', '/ws/app']);
    for (const cwd of ['/', '/etc', '/ws', '/ws/app/../../etc', 'relative/dir', '', undefined]) {
      expect(renderer.roots(cwd)).toEqual(['/ws/app', '/ws/lib']);
    }
  });

  describe('over the socket', () => {
    let host: Host;
    let client: RawPeer;
    let secretDir: string;

    beforeAll(async () => {
      host = await startHost();
      // A file beside the workspace, as /etc/passwd is beside every workspace.
      secretDir = path.join(path.dirname(host.workspace), 'secret');
      fs.mkdirSync(secretDir);
      fs.writeFileSync(path.join(secretDir, 'passwd'), 'root:x:0:0\n'.repeat(25));
      client = await RawPeer.connect(host.socketPath);
      expect(await client.hello(host.token)).toMatchObject({ result: {} });
    });
    afterAll(async () => {
      client.socket.destroy();
      await host.stop();
    });

    async function present(id: string, content: string, cwd: string): Promise<WireReply<ResultOf<'present-review'>>> {
      return await client.request('present-review', { content, cwd }, { id });
    }

    it('with cwd "/", nothing outside the workspace is looked up: no existence, no length', async () => {
      const relative = `${secretDir.slice(1)}/passwd`;
      const reply = await present(
        'oracle',
        `- \`${relative}:99999\`\n- ${secretDir}/passwd:99999\n- ${secretDir}/none:1\n- \`src/example.ts:2\`\n`,
        '/',
      );
      const { references } = reply.result!;
      expect(references).toMatchObject({ total: 4, resolved: 1 });
      expect(references.broken.map((broken: { reason: string }) => broken.reason)).toEqual([
        // Relative to the workspace, not to "/": there is no such file there.
        `no file ${relative} in ${host.workspace}`,
        // Absolute paths outside: the same words whether the file exists or not.
        `${secretDir}/passwd is ${OUTSIDE_ROOTS}`,
        `${secretDir}/none is ${OUTSIDE_ROOTS}`,
      ]);
    });

    it('a cwd inside the workspace still resolves relative references from there', async () => {
      const reply = await present('inside', '- `example.ts:3`\n', path.join(host.workspace, 'src'));
      expect(reply.result!.references).toMatchObject({ total: 1, resolved: 1, broken: [] });
    });
  });
});
