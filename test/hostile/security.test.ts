// Security: who may talk to a window's socket (tokens, replays, other users, file modes), and what
// an AI-written review can turn into a link (paths outside the workspace, odd schemes).

import { execFileSync, spawn, spawnSync } from 'child_process';
import fc from 'fast-check';
import * as fs from 'fs';
import MarkdownIt from 'markdown-it';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { parseLinkTarget } from '../../shared/links';
import { clientProof, createNonce } from '../../shared/authProof';
import { ErrorCode, PROTOCOL_VERSION } from '../../shared/protocol';
import { renderReview } from '../../extension/src/render/markdownRenderer';
import { OUTSIDE_ROOTS, ReferenceResolver } from '../../extension/src/render/referenceResolver';
import { assertBuilt, connectMcp, startHost, type Host } from '../integration/harness';
import { until } from '../support/until';
import { startWindowHost, useRuntimeDir } from './windowHost';
import { RawPeer, byId, type WireReply } from '../integration/rawPeer';

type ToolResult = { isError?: boolean; content: Array<{ type: string; text: string }> };

function hello(clientNonce: string, id = 'hello-1', protocolVersion = PROTOCOL_VERSION): Record<string, unknown> {
  return {
    type: 'hello',
    id,
    clientNonce,
    protocolVersion,
    client: { name: 'hostile', version: '1', pid: process.pid },
  };
}
const smuggled = { type: 'request', id: 'smuggled', method: 'present-review', params: { content: '# smuggled in' } };
const line = (message: unknown) => JSON.stringify(message) + '\n';

describe('tokens', () => {
  let host: Host;
  beforeEach(async () => {
    host = await startHost();
  });
  afterEach(async () => host?.stop());

  /**
   * Says hello, then answers the challenge with `proofFor(challenge, clientNonce)` and a request in
   * one write. Returns every reply once the server has closed the connection.
   */
  async function authWith(
    proofFor: (challenge: { serverNonce: string; serverProof: string }, clientNonce: string) => string,
  ): Promise<WireReply[]> {
    const raw = await RawPeer.connect(host.socketPath);
    const clientNonce = createNonce();
    raw.send(hello(clientNonce));
    const challenge = await raw.challenge('hello-1');
    raw.sendRaw(
      line({ type: 'auth', id: 'auth-1', clientProof: proofFor(challenge.result!, clientNonce) }) + line(smuggled),
    );
    await raw.whenClosed();
    expect(host.store.revision).toBe(0);
    return raw.replies;
  }

  it('refuses every wrong proof, closes the connection, and runs nothing sent after it', async () => {
    const t = host.token;
    const wrongTokens: Array<[string, string]> = [
      ['all zeros', '0'.repeat(32)],
      ['upper case', t.toUpperCase()],
      ['one character short', t.slice(0, -1)],
      ['one character long', t + '0'],
      ['a trailing NUL', t + '\u0000'],
      ['the token twice', t + t],
      ['empty', ''],
    ];
    expect(t).toMatch(/^[0-9a-f]{32}$/);
    const wrongProofs: Array<
      [string, (c: { serverNonce: string; serverProof: string }, clientNonce: string) => string]
    > = [
      ...wrongTokens.map(([name, token]): [string, (c: { serverNonce: string }, n: string) => string] => [
        name,
        (c, n) => clientProof(token, c.serverNonce, n),
      ]),
      // The server's own proof sent back: the labels keep it from passing as a client's.
      ['the server proof reflected', (c) => c.serverProof],
      ['the right token with the nonces swapped', (c, n) => clientProof(t, n, c.serverNonce)],
      ['the right token over another server nonce', (_c, n) => clientProof(t, createNonce(), n)],
      ['zeros', () => '0'.repeat(64)],
    ];
    for (const [, proofFor] of wrongProofs) {
      const replies = await authWith(proofFor);
      expect(replies.map((r) => [r.id, r.error?.code])).toEqual([
        ['hello-1', undefined],
        ['auth-1', ErrorCode.Unauthorized],
      ]);
    }
  });

  it('refuses a malformed or old-style hello at once, and answers nothing after it', async () => {
    const v1 = {
      type: 'hello',
      id: 'hello-1',
      token: host.token,
      protocolVersion: 1,
      client: { name: 'old', version: '1', pid: 1 },
    };
    const cases: Array<[Record<string, unknown>, number]> = [
      [v1, ErrorCode.VersionMismatch],
      [{ ...v1, protocolVersion: PROTOCOL_VERSION }, ErrorCode.InvalidMessage],
      [hello('not-hex'), ErrorCode.InvalidMessage],
      [{ ...hello(createNonce()), clientNonce: undefined }, ErrorCode.InvalidMessage],
      [hello(createNonce(), 'hello-1', 99), ErrorCode.VersionMismatch],
      [{ type: 'auth', id: 'hello-1', clientProof: '0'.repeat(64) }, ErrorCode.Unauthorized],
    ];
    for (const [message, code] of cases) {
      const raw = await RawPeer.connect(host.socketPath);
      raw.sendRaw(line(message) + line(smuggled));
      await raw.whenClosed();
      expect(raw.replies.map((r) => [r.id, r.error?.code])).toEqual([['hello-1', code]]);
      expect(host.store.revision).toBe(0);
    }
  });

  it('a second hello on an authenticated connection is refused and changes nothing, whatever its token', async () => {
    const raw = await RawPeer.connect(host.socketPath);
    expect((await raw.hello(host.token)).result).toBeDefined();
    const replayed = await raw.hello(host.token, 'hello-2');
    expect(replayed.error).toEqual({
      code: ErrorCode.InvalidMessage,
      message: 'Already authenticated on this connection.',
    });
    const wrong = await raw.hello('0'.repeat(32), 'hello-3');
    expect(wrong.error?.code).toBe(ErrorCode.InvalidMessage);
    // Still the same authenticated connection: neither hello de-authenticated it nor closed it.
    const after = await raw.request('present-review', { content: '# still mine' }, { id: 'after' });
    expect(after.result!.revision).toBe(1);
    expect(raw.closed).toBe(false);
    raw.destroy();
  });

  it('a captured handshake replayed byte for byte is refused, before and after a restart with a new token', async () => {
    assertBuilt();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-replay-'));
    const socketPath = path.join(dir, 's.sock');
    let first: Host | undefined = await startHost({ socketPath });
    let second: Host | undefined;
    const oldToken = first.token;
    const mcp = await connectMcp({ REDLINE_IPC_PATH: socketPath, REDLINE_IPC_TOKEN: oldToken });
    try {
      // What an honest client sent in a successful handshake, captured.
      const clientNonce = createNonce();
      const honest = await RawPeer.connect(socketPath);
      honest.send(hello(clientNonce, 'captured'));
      const challenge = await honest.challenge('captured');
      const capturedAuth = line({
        type: 'auth',
        id: 'captured-auth',
        clientProof: clientProof(oldToken, challenge.result!.serverNonce, clientNonce),
      });
      honest.sendRaw(capturedAuth);
      expect((await honest.waitFor(byId('captured-auth'))).result).toBeDefined();
      honest.destroy();
      const captured = line(hello(clientNonce, 'captured')) + capturedAuth + line(smuggled);

      // Replayed to the same window: a fresh server nonce makes the old proof worthless.
      const replaySame = await RawPeer.connect(socketPath);
      replaySame.sendRaw(captured);
      await replaySame.whenClosed();
      expect(replaySame.replies.map((r) => [r.id, r.error?.code])).toEqual([
        ['captured', undefined],
        ['captured-auth', ErrorCode.Unauthorized],
      ]);
      expect(first.store.revision).toBe(0);
      expect(((await mcp.client.callTool({ name: 'get-review', arguments: {} })) as ToolResult).isError).toBeFalsy();

      await first.stop();
      first = undefined;
      second = await startHost({ socketPath });
      expect(second.token).not.toBe(oldToken);

      const replay = await RawPeer.connect(socketPath);
      replay.sendRaw(captured);
      await replay.whenClosed();
      expect(replay.replies.map((r) => [r.id, r.error?.code])).toEqual([
        ['captured', undefined],
        ['captured-auth', ErrorCode.Unauthorized],
      ]);

      // The MCP server with the old token finds that the new window cannot prove it holds that token.
      const stale = (await mcp.client.callTool({
        name: 'present-review',
        arguments: { content: '# old token' },
      })) as ToolResult;
      expect(stale.isError).toBe(true);
      expect(stale.content[0].text).toMatch(/could not prove that it holds the token in REDLINE_IPC_TOKEN/);
      expect(second.store.revision).toBe(0);
      // The refused connections go once their close has gone through.
      await until(() => second!.server.connectionCount === 0, 'the window to close the refused connections');
    } finally {
      await mcp.close();
      await first?.stop();
      await second?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an MCP server without a token says how to get one, and never reaches the socket', async () => {
    assertBuilt();
    const mcp = await connectMcp({ REDLINE_IPC_PATH: host.socketPath });
    try {
      const result = (await mcp.client.callTool({ name: 'get-review', arguments: {} })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(/REDLINE_IPC_TOKEN is not set/);
      expect(host.server.connectionCount).toBe(0);
    } finally {
      await mcp.close();
    }
  });
});

describe('the socket and its directory', () => {
  let runtime: ReturnType<typeof useRuntimeDir>;
  beforeEach(() => {
    runtime = useRuntimeDir();
  });
  afterEach(() => runtime.restore());

  it('are 0700 and 0600, owned by this user, even under umask 000', async () => {
    const previousUmask = process.umask(0o000);
    let window: Awaited<ReturnType<typeof startWindowHost>> | undefined;
    try {
      window = await startWindowHost();
    } finally {
      process.umask(previousUmask);
    }
    try {
      const { directory, path: socketPath } = window.location;
      expect(directory).toBe(path.join(runtime.dir, 'redline'));
      const dir = fs.lstatSync(directory);
      expect(dir.isDirectory()).toBe(true);
      expect(dir.mode & 0o777).toBe(0o700);
      expect(dir.uid).toBe(process.getuid!());
      for (const [file, isRightKind] of [
        [socketPath, (stat: fs.Stats) => stat.isSocket()],
        [window.discoveryFile, (stat: fs.Stats) => stat.isFile()],
      ] as const) {
        const stat = fs.lstatSync(file);
        expect(isRightKind(stat)).toBe(true);
        expect(stat.mode & 0o777).toBe(0o600);
        expect(stat.uid).toBe(process.getuid!());
      }
    } finally {
      await window.stop();
    }
  });

  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    process.stdout.write(
      `SKIPPED "another uid cannot reach the socket": it needs root (to create a user and run a process as it); ` +
        `this run has uid ${process.getuid?.()}.\n`,
    );
  }
  (isRoot ? it : it.skip)(
    'another uid cannot reach the socket: EACCES, from the 0700 directory alone and from the 0600 socket alone',
    async () => {
      const user = ensureUser('redline-fuzz');
      const control = await openControlSocket(runtime.dir);
      try {
        // The runtime dir itself is world-searchable here, so only Redline's own modes keep others out.
        fs.chmodSync(runtime.dir, 0o755);
        const window = await startWindowHost();
        try {
          const { directory, path: ownPath } = window.location;
          const probe = () =>
            probeAs(user, [
              { connect: control.socketPath },
              { connect: ownPath },
              { read: window.discoveryFile },
              { readdir: directory },
            ]);

          // As started: 0700 directory, 0600 socket. The control socket proves the probe can connect at all.
          expect(await probe()).toEqual(['connected', 'EACCES', 'EACCES', 'EACCES']);

          // The directory alone keeps others out, even with a socket anyone could write to.
          fs.chmodSync(ownPath, 0o666);
          expect(await probe()).toEqual(['connected', 'EACCES', 'EACCES', 'EACCES']);
          fs.chmodSync(ownPath, 0o600);

          // And the socket's mode alone, were the directory opened up.
          fs.chmodSync(directory, 0o755);
          expect(await probe()).toEqual(['connected', 'EACCES', 'EACCES', 'listed']);
          fs.chmodSync(directory, 0o700);

          // The owner is still served.
          const raw = await RawPeer.connect(ownPath);
          expect((await raw.hello(window.host.token)).result).toBeDefined();
          raw.destroy();
        } finally {
          await window.stop();
        }
      } finally {
        control.close();
        user.cleanup();
      }
    },
  );
});

describe('links in a review', () => {
  let root: string;
  let workspace: string;
  beforeAll(() => {
    // <root>/ws is the workspace; <root>/outside is a sibling folder the review may point into.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-links-'));
    workspace = path.join(root, 'ws');
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'src/a.ts'), 'one\ntwo\nthree\n');
    fs.mkdirSync(path.join(root, 'outside'));
    fs.writeFileSync(path.join(root, 'outside/secret.txt'), '1\n2\n3\n');
    fs.symlinkSync('/etc', path.join(workspace, 'etc-link'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const render = (markdown: string) => renderReview(markdown, new ReferenceResolver([workspace]));
  type Outcome = 'resolved' | 'broken' | 'not a link';
  /** What a single reference in the markdown became: its data-ref, and whether it resolved. */
  async function outcome(markdown: string): Promise<{ outcome: Outcome; ref?: string; reason?: string }> {
    const { html, references } = await render(markdown);
    assertNoLiveLinks(html);
    const refs = attributes(html, 'data-ref');
    expect(attributes(html, 'data-external')).toEqual([]);
    if (refs.length === 0) {
      expect(references.total).toBe(0);
      return { outcome: 'not a link' };
    }
    expect(refs).toHaveLength(1);
    expect(references.total).toBe(1);
    return references.resolved === 1
      ? { outcome: 'resolved', ref: refs[0] }
      : { outcome: 'broken', ref: refs[0], reason: references.broken[0].reason };
  }

  it('files outside the workspace: the same answer whether or not the file exists, and no lookup', async () => {
    const outside = { outcome: 'broken', reason: expect.stringContaining(OUTSIDE_ROOTS) };
    // Absolute paths are part of the grammar, but outside the roots they are never looked up.
    expect(await outcome('/etc/passwd:1')).toEqual({ ...outside, ref: '/etc/passwd:1' });
    expect(await outcome('[passwd](/etc/passwd:1)')).toEqual({ ...outside, ref: '/etc/passwd:1' });
    expect(await outcome('`/etc/passwd:1`')).toEqual({ ...outside, ref: '/etc/passwd:1' });
    expect(await outcome('/nonexistent-redline/x.ts:1')).toMatchObject(outside);
    // `..` out of the workspace is outside too, whether the file is there or not.
    expect(await outcome('../../etc/passwd:1')).toMatchObject(outside);
    expect(await outcome(`${'../'.repeat(workspace.split('/').length + 2)}etc/passwd:1`)).toMatchObject(outside);
    expect(await outcome('../outside/secret.txt:2')).toMatchObject(outside);
    expect(await outcome('../outside/secret.txt:9')).toMatchObject(outside);
    expect(await outcome('../outside/none.txt:9')).toMatchObject(outside);
    // Path-only inline code is a link only if the file is known to exist, so these stay code.
    expect(await outcome('`/etc/passwd`')).toEqual({ outcome: 'not a link' });
    expect(await outcome('`/dev/zero`')).toEqual({ outcome: 'not a link' });
    // A symlink in the workspace that leads out of it is outside too: containment is judged on real paths.
    expect(await outcome('etc-link/passwd:1')).toMatchObject(outside);
    expect(await outcome('etc-link/nonexistent-redline:1')).toMatchObject(outside);
    // Windows and UNC paths are never looked up here (no SMB lookups), only reported.
    expect(await outcome('`\\\\evil.example\\share\\a.ts:1`')).toMatchObject({
      outcome: 'broken',
      reason: expect.stringContaining('network shares and device paths are not opened'),
    });
    expect(await outcome('`C:\\Windows\\win.ini:1`')).toMatchObject(outside);
    // Percent-encoding is decoded before the check, NUL bytes are refused.
    expect(await outcome('[x](%2Fetc%2Fpasswd:1)')).toMatchObject(outside);
    expect(await outcome('[x](/etc/passwd%00.ts:1)')).toEqual({ outcome: 'not a link' });
  });

  it('devices and FIFOs in the workspace are never read (counting their lines would block or never end)', async () => {
    fs.symlinkSync('/dev/zero', path.join(workspace, 'zero.bin'));
    execFileSync('mkfifo', [path.join(workspace, 'pipe.txt')]);
    try {
      // A link to a device is outside the workspace, and a FIFO in it is not a file to count.
      expect(await outcome('zero.bin:1')).toMatchObject({ outcome: 'broken', reason: `zero.bin is ${OUTSIDE_ROOTS}` });
      expect(await outcome('pipe.txt:1')).toMatchObject({
        outcome: 'broken',
        reason: 'cannot read pipe.txt: it is not a regular file',
      });
    } finally {
      fs.rmSync(path.join(workspace, 'zero.bin'));
      fs.rmSync(path.join(workspace, 'pipe.txt'));
    }
  });

  it('file: URIs are local files only: no host, or localhost', async () => {
    const inside = `file://${path.join(workspace, 'src/a.ts')}:1`;
    expect(await outcome(inside)).toEqual({ outcome: 'resolved', ref: inside });
    expect(await outcome(`[x](file://localhost${path.join(workspace, 'src/a.ts')}:1)`)).toMatchObject({
      outcome: 'resolved',
    });
    for (const markdown of [
      '[x](file://evil.example/etc/passwd:1)',
      'file://evil.example/etc/passwd:1',
      '`file://evil.example/etc/passwd:1`',
      '[x](file://127.0.0.1/etc/passwd:1)',
      '[x](file:////evil.example/share/a.ts:1)',
      '[x](file:etc/passwd)',
    ]) {
      expect([markdown, await outcome(markdown)]).toEqual([markdown, { outcome: 'not a link' }]);
    }
  });

  it('command:, vscode:, javascript:, data: and other schemes never become a link', async () => {
    const refused = [
      '[x](command:workbench.action.terminal.new)',
      '[x](command:vscode.open?%5B%22file%3A%2F%2F%2Fetc%2Fpasswd%22%5D)',
      '[x](command:foo.ts:1)',
      'command:foo.ts:1',
      '<command:workbench.action.terminal.new>',
      '`command:workbench.action.openSettings`',
      '[x](vscode://file/etc/passwd:1)',
      'vscode://file/etc/passwd:1',
      '[x](vscode-insiders://file/etc/passwd:1)',
      '[x](vscode-webview://abc/index.html)',
      '[x](vscode-resource:/etc/passwd:1)',
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](  javascript:alert(1))',
      '[x](java%09script:alert(1))',
      '[x](&#x6A;avascript:alert(1))',
      '[x](vbscript:msgbox(1))',
      '[x](data:text/html,<script>alert(1)</script>)',
      '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '[x](blob:https://example.com/uuid)',
      '[x](about:blank)',
      '[x](mailto:a@b.example)',
      '[x](ftp://evil.example/a)',
      '[x](//evil.example/a)',
      '[x][r]\n\n[r]: command:workbench.action.terminal.new',
      '<a href="command:workbench.action.terminal.new">x</a>',
    ];
    for (const markdown of refused) {
      expect([markdown, await outcome(markdown)]).toEqual([markdown, { outcome: 'not a link' }]);
    }
    // Images are never loaded, from any scheme.
    for (const markdown of [
      '![i](file:///etc/passwd)',
      '![i](https://evil.example/pixel.png)',
      '![i](data:image/png;base64,AAAA)',
    ]) {
      const { html } = await render(markdown);
      assertNoLiveLinks(html);
      expect(html).toBe('<p data-line="0"><span class="redline-image">i</span></p>\n');
    }
    // http(s) is the one scheme that leaves VS Code, and only through the host (data-external, href="#").
    const { html } = await render('[x](https://example.com/a) and HTTP://example.com/b');
    assertNoLiveLinks(html);
    expect(attributes(html, 'data-external')).toEqual(['https://example.com/a', 'HTTP://example.com/b']);
  });

  it('generated hostile destinations: every data-ref is a local file reference and every data-external is http(s)', async () => {
    const schemes = [
      'command',
      'vscode',
      'vscode-insiders',
      'vscode-webview',
      'javascript',
      'vbscript',
      'data',
      'file',
      'blob',
      'about',
      'mailto',
      'ftp',
      'jar',
      'ms-settings',
      'http',
      'https',
      'x-redline',
    ];
    const manglings: Array<(scheme: string) => string> = [
      (s) => s,
      (s) => s.toUpperCase(),
      (s) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`,
      (s) => `&#x${s.charCodeAt(0).toString(16)};${s.slice(1)}`,
      (s) => `${s[0]}\t${s.slice(1)}`,
      (s) => `${s[0]}%09${s.slice(1)}`,
      (s) => `${s[0]}\u200b${s.slice(1)}`,
      (s) => `\u202e${s}`,
      (s) => ` ${s}`,
    ];
    const rests = [
      'alert(1)',
      'workbench.action.terminal.new',
      '//file/etc/passwd:1',
      '/etc/passwd:1',
      '///etc/passwd:1',
      '//localhost/etc/passwd:1',
      '//evil.example/x.ts:3',
      'text/html,<script>alert(1)</script>',
      'src/a.ts:2',
      '%2Fetc%2Fpasswd:1',
      'a.ts#L2',
    ];
    const withScheme = fc
      .tuple(
        fc.constantFrom(...schemes),
        fc.constantFrom(...manglings),
        fc.constantFrom(':', '://', ':/', ':////'),
        fc.oneof(fc.constantFrom(...rests), fc.string({ maxLength: 30 })),
      )
      .map(([scheme, mangle, separator, rest]) => mangle(scheme) + separator + rest);
    // Some that are links, so the property is also checked on what gets through.
    const plain = fc.constantFrom(
      'src/a.ts:2',
      'src/a.ts#L1-L2',
      '/etc/passwd:1',
      '../../x.ts:3',
      '%2Fetc%2Fpasswd:1',
      'file:///etc/passwd:1',
      'https://example.com/x',
      'C:\\x\\a.ts:1',
      'Makefile:1',
    );
    const destination = fc.oneof({ weight: 4, arbitrary: withScheme }, { weight: 1, arbitrary: plain });
    const forms: Array<(target: string) => string> = [
      (t) => `[text](${t})`,
      (t) => `[text](<${t}>)`,
      (t) => `[text](${t} "title")`,
      (t) => `<${t}>`,
      (t) => `see ${t} here`,
      (t) => `\`${t}\``,
      (t) => `![alt](${t})`,
      (t) => `[text][r]\n\n[r]: ${t}`,
      (t) => `- item (${t}).`,
    ];
    const review = fc.array(
      fc.tuple(fc.constantFrom(...forms), destination).map(([form, target]) => form(target)),
      { minLength: 1, maxLength: 4 },
    );
    let links = 0;
    await fc.assert(
      fc.asyncProperty(review, async (pieces) => {
        const { html } = await render(pieces.join('\n\n'));
        assertNoLiveLinks(html);
        for (const ref of attributes(html, 'data-ref')) {
          links++;
          const target = parseLinkTarget(ref);
          if (target?.kind !== 'file') throw new Error(`data-ref "${ref}" is not a file reference`);
          // The grammar refuses any colon left in a path, except a drive letter's: so no scheme.
          expect(target.path.replace(/^\/?[A-Za-z]:[\\/]/, '')).not.toMatch(/:/);
          if (/^file:/i.test(ref)) expect(ref).toMatch(/^file:\/\/(localhost)?\//i);
        }
        for (const url of attributes(html, 'data-external')) {
          links++;
          expect(url).toMatch(/^https?:\/\/[^\s/?#]+/i);
          expect(parseLinkTarget(url)?.kind).toBe('external');
        }
      }),
      { seed: 0x5ec, numRuns: 2000 },
    );
    process.stdout.write(`hostile link property: 2000 reviews, ${links} links checked\n`);
  });
});

// ---- helpers ----------------------------------------------------------------------------------

const { unescapeAll } = new MarkdownIt().utils;

/** The values of one attribute across the HTML, unescaped. */
function attributes(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => unescapeHtml(m[1]));
}

function unescapeHtml(text: string): string {
  return unescapeAll(text)
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Nothing the browser itself could follow or load: in every tag, every href is "#", and there is
 * no src, srcset, action, style or on* handler. (Escaped text such as `&lt;a href=…` is not a tag.)
 */
function assertNoLiveLinks(html: string): void {
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    expect(tag).toMatch(
      /^<(p|a|code|pre|span|em|strong|ul|ol|li|h[1-6]|blockquote|br|hr|table|thead|tbody|tr|th|td|del|s)\b/,
    );
    for (const match of tag.matchAll(/\shref\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)) expect(match[1]).toBe('"#"');
    expect(tag).not.toMatch(/\s(src|srcset|action|formaction|xlink:href|style)\s*=/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
  }
}

interface FuzzUser {
  readonly uid: number;
  readonly gid: number;
  cleanup(): void;
}

/** The user to probe as: created for this test when absent, and removed again only then. */
function ensureUser(name: string): FuzzUser {
  const id = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  let created = false;
  if (id('-u').status !== 0) {
    const added = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], {
      encoding: 'utf8',
    });
    // Another run may have added it meanwhile; then it is that run's to remove.
    if (added.status !== 0 && id('-u').status !== 0) throw new Error(`useradd ${name} failed: ${added.stderr}`);
    created = added.status === 0;
  }
  return {
    uid: Number(id('-u').stdout.trim()),
    gid: Number(id('-g').stdout.trim()),
    cleanup() {
      if (created) spawnSync('userdel', [name]);
    },
  };
}

type Probe = { connect: string } | { readdir: string } | { read: string };

/** Runs `node -e` as the user: the outcome of each probe, 'connected' / 'listed' / 'read' or the error code. */
function probeAs(user: FuzzUser, probes: Probe[]): Promise<string[]> {
  const script = `
    const net = require('net'), fs = require('fs');
    const probes = JSON.parse(process.argv[1]);
    Promise.all(probes.map((p) => new Promise((resolve) => {
      if (p.readdir) { try { fs.readdirSync(p.readdir); resolve('listed'); } catch (e) { resolve(e.code); } return; }
      if (p.read) { try { fs.readFileSync(p.read); resolve('read'); } catch (e) { resolve(e.code); } return; }
      const socket = net.connect(p.connect);
      socket.once('connect', () => { socket.destroy(); resolve('connected'); });
      socket.once('error', (e) => resolve(e.code));
    }))).then((results) => process.stdout.write(JSON.stringify(results)));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify(probes)], {
      uid: user.uid,
      gid: user.gid,
      cwd: '/',
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(JSON.parse(out) as string[]);
      else reject(new Error(`probe as uid ${user.uid} failed (${code}): ${err}`));
    });
  });
}

/** A socket anyone may connect to, in a folder anyone may enter: proves the probe works at all. */
async function openControlSocket(runtimeDir: string): Promise<{ socketPath: string; close(): void }> {
  const dir = path.join(runtimeDir, 'open');
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  const socketPath = path.join(dir, 'control.sock');
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  fs.chmodSync(socketPath, 0o777);
  return { socketPath, close: () => server.close() };
}
