// Input with nothing to show, from the command line and from an assistant: whitespace, a byte
// order mark, or both. Each is refused with a message that says so, and the review the window
// shows is the one it showed before.

import { Readable } from 'stream';
import { runCli, Exit, type CliIo } from '../../mcp-server/src/cli';
import { assertBuilt, callTool, connectMcp, hostEnv, startHost, type Host } from './harness';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BLANK_INPUTS: Array<[string, Buffer]> = [
  ['whitespace', Buffer.from('  \n\t\r\n\n   ')],
  ['a byte order mark', BOM],
  ['a byte order mark and whitespace', Buffer.concat([BOM, Buffer.from('\n \t\n')])],
];

function cli(host: Host, argv: string[], stdin: Buffer): CliIo & { out: string; err: string } {
  const run = {
    argv,
    env: hostEnv(host),
    cwd: host.workspace,
    out: '',
    err: '',
    stdout: (text: string) => (run.out += text),
    stderr: (text: string) => (run.err += text),
    stdin: Readable.from([stdin]),
  };
  return run;
}

describe('a review with nothing in it', () => {
  let host: Host;
  const shown = '# Kept\n\nThe review the user is reading.\n';

  beforeAll(async () => {
    assertBuilt();
    host = await startHost();
  });
  afterAll(() => host?.stop());

  beforeEach(async () => {
    const present = cli(host, ['present', '-'], Buffer.from(shown));
    expect(await runCli(present)).toBe(Exit.ok);
  });

  it.each(BLANK_INPUTS)(
    'is refused from standard input holding %s, in every mode, and the review stays',
    async (_what, input) => {
      const before = host.store.current!;
      for (const mode of ['replace', 'append', 'update-section']) {
        const run = cli(
          host,
          ['present', '-', '--mode', mode, ...(mode === 'update-section' ? ['--section', 'Kept'] : [])],
          input,
        );
        expect(await runCli(run)).toBe(Exit.usage);
        expect(run.err).toBe(
          'redline: standard input holds only whitespace: there is no review to present, and the one shown is left as it is.\n',
        );
        expect(run.out).toBe('');
      }
      expect(host.store.current!.revision).toBe(before.revision);
      expect(host.store.current!.markdown).toBe(shown);
      const read = cli(host, ['get-review'], Buffer.alloc(0));
      expect(await runCli(read)).toBe(Exit.ok);
      expect(read.out).toBe(shown);
    },
  );

  it('is refused from an assistant, whose present-review is told why, and the review stays', async () => {
    const mcp = await connectMcp(hostEnv(host), host.workspace);
    try {
      // The CLI presented as the window's first assistant; this client has a review of its own.
      const first = await callTool(mcp.client, 'present-review', { content: shown });
      expect(first.isError).toBeFalsy();
      const revision = first.structuredContent!.revision;
      for (const content of ['   \n\t\n', '\ufeff', '\ufeff \n\n']) {
        const result = await callTool(mcp.client, 'present-review', { content });
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toContain(
          'content holds only whitespace: there is nothing to present, and the review shown is left as it is.',
        );
      }
      const review = await callTool(mcp.client, 'get-review', {});
      expect(review.structuredContent!.revision).toBe(revision);
      expect(review.structuredContent!.markdown).toBe(shown);
    } finally {
      await mcp.close();
    }
  });
});
