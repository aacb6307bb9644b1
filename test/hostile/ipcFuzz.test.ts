// Fuzzes the real IpcServer on a real socket with 10,000 generated hostile lines (fuzzLines.ts), in
// 100 seeded sessions of 100 lines, while a valid client beside them is served throughout. Every
// line must get exactly the error reply the protocol prescribes, or the connection a clean close.

import fc from 'fast-check';
import { Challenge, ErrorCode, ResponseMessage, type ResultOf } from '../../shared/protocol';
import { startHost, type Host } from '../integration/harness';
import {
  expectedBeforeAuth,
  expectedReply,
  FUZZ_MAX_LINE_BYTES,
  fuzzLine,
  kindNames,
  oversizeLine,
  type ExpectedReply,
  type FuzzLine,
} from './fuzzLines';
import { until } from '../support/until';
import { RawPeer, byId, type WireReply } from '../integration/rawPeer';

const SEED = 20_251_122;
const SESSIONS = 100;
const LINES_PER_SESSION = 100;

interface Session {
  readonly authenticated: boolean;
  readonly lines: readonly FuzzLine[];
  /** Byte sizes to cut the burst into, written one event-loop turn apart; undefined: one write. */
  readonly chunks: readonly number[] | undefined;
}

const session: fc.Arbitrary<Session> = fc
  .record({
    authenticated: fc.oneof({ weight: 17, arbitrary: fc.constant(true) }, { weight: 3, arbitrary: fc.constant(false) }),
    body: fc.array(fuzzLine, { minLength: LINES_PER_SESSION - 1, maxLength: LINES_PER_SESSION - 1 }),
    // One session in five ends with a line over the limit.
    last: fc.oneof({ weight: 4, arbitrary: fuzzLine }, { weight: 1, arbitrary: oversizeLine }),
    chunks: fc.option(fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 16 }), { freq: 3 }),
  })
  .map(({ authenticated, body, last, chunks }) => ({
    authenticated,
    lines: [...body, last],
    chunks: chunks ?? undefined,
  }));

/** What one connection must be answered, in order, for lines sent one after another. */
function expectedFor(
  lines: readonly FuzzLine[],
  authenticated: boolean,
): { replies: ExpectedReply[]; consumed: number } {
  if (!authenticated) return expectedBeforeAuth(lines);
  const replies: ExpectedReply[] = [];
  for (let i = 0; i < lines.length; i++) {
    const reply = expectedReply(lines[i].verdict, authenticated);
    if (!reply) continue;
    replies.push(reply);
    if (reply.closes) return { replies, consumed: i + 1 };
  }
  return { replies, consumed: lines.length };
}

const asPair = (r: { id: string | null; code: number }) => JSON.stringify([r.id, r.code]);

async function write(raw: RawPeer, data: Buffer, chunks: readonly number[] | undefined): Promise<void> {
  if (!chunks) {
    raw.socket.write(data);
    return;
  }
  // Cuts fall anywhere: inside a line, inside a multi-byte character, between CR and LF.
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = chunks[i % chunks.length];
    raw.socket.write(data.subarray(at, at + size));
    at += size;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const burst = (lines: readonly FuzzLine[], ...extra: string[]) =>
  Buffer.concat([...lines.flatMap((l) => [l.bytes, Buffer.from('\n')]), ...extra.map((e) => Buffer.from(e + '\n'))]);

describe('fuzzing the IPC server', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ maxLineBytes: FUZZ_MAX_LINE_BYTES });
  });
  afterAll(async () => host?.stop());

  it(`answers ${SESSIONS * LINES_PER_SESSION} hostile lines with errors or a clean close, and serves a valid client throughout`, async () => {
    const bystander = await RawPeer.connect(host.socketPath);
    await bystander.hello(host.token);
    const baseline = host.server.connectionCount;
    const stats = {
      lines: 0,
      answered: 0,
      afterClose: 0,
      oversize: 0,
      unauthenticatedSessions: 0,
      maxDepth: 0,
      bystanderReplies: 0,
    };
    const byKind = new Map<string, number>();
    let run = 0;
    const started = Date.now();

    await fc.assert(
      fc.asyncProperty(session, async ({ authenticated, lines, chunks }) => {
        const n = run++;
        stats.lines += lines.length;
        for (const l of lines) {
          byKind.set(l.kind, (byKind.get(l.kind) ?? 0) + 1);
          stats.maxDepth = Math.max(stats.maxDepth, l.depth ?? 0);
        }
        const raw = await RawPeer.connect(host.socketPath);
        try {
          if (authenticated) await raw.hello(host.token, `hello-${n}`);
          const from = raw.replies.length;

          // The valid client asks just before and while this session's garbage is on its way.
          bystander.send({
            type: 'request',
            id: `append-${n}`,
            method: 'present-review',
            params: { content: `## Bystander ${n}\n\nserved during session ${n}`, mode: 'append' },
          });
          const sendAndRead = async (data: Buffer) => {
            const writing = write(raw, data, chunks);
            bystander.send({ type: 'request', id: `read-${n}`, method: 'get-review', params: {} });
            await writing;
          };

          if (authenticated) {
            // Phase 1: every line but an oversize one, then a valid request; its answer comes after all of theirs.
            const oversizeAt = lines.findIndex((l) => l.verdict.kind === 'oversize');
            const body = oversizeAt === -1 ? lines : lines.slice(0, oversizeAt);
            const sentinel = `sentinel-${n}`;
            await sendAndRead(
              burst(body, JSON.stringify({ type: 'request', id: sentinel, method: 'get-review', params: {} })),
            );
            expect((await raw.waitFor(byId(sentinel))).result).toBeDefined();
            // The window also tells every connection that a review changed (events carry no id).
            const errors = raw.replies.slice(from).filter((r) => r.type !== 'event' && r.id !== sentinel);
            const { replies: expected } = expectedFor(body, true);
            expect(errors.length).toBe(body.length);
            // Errors for bad lines are written at once and requests wait their turn, so compare as multisets.
            expect(errors.map((r) => asPair({ id: r.id ?? null, code: r.error?.code ?? 0 })).sort()).toEqual(
              expected.map(asPair).sort(),
            );
            checkWellFormed(errors);
            stats.answered += errors.length;

            if (oversizeAt !== -1) {
              // Phase 2: the oversize line closes the connection; a valid request right behind it never runs.
              const before = raw.replies.length;
              raw.socket.write(
                burst(
                  [lines[oversizeAt]],
                  JSON.stringify({
                    type: 'request',
                    id: 'behind',
                    method: 'present-review',
                    params: { content: '# must not run' },
                  }),
                ),
              );
              await raw.whenClosed();
              expect(raw.replies.slice(before)).toEqual([
                {
                  type: 'response',
                  id: null,
                  error: {
                    code: ErrorCode.LineTooLong,
                    message: `Message larger than ${FUZZ_MAX_LINE_BYTES} bytes; closing this connection.`,
                  },
                },
              ]);
              expect(host.store.current?.markdown ?? '').not.toMatch(/must not run/);
              stats.oversize++;
              stats.answered++;
              stats.afterClose += lines.length - oversizeAt - 1;
            }
          } else {
            stats.unauthenticatedSessions++;
            // Before authentication the answers come in order, up to the first line that is not the next
            // step of the handshake (refused, and the connection closed); an auth that cannot hold a
            // proof of the token ends every session that is still open.
            const terminator = JSON.stringify({ type: 'auth', id: `wrong-${n}`, clientProof: '0'.repeat(64) });
            const { replies: expected, consumed } = expectedFor(lines, false);
            const closedEarly = expected.length > 0 && expected[expected.length - 1].closes;
            await sendAndRead(burst(lines, terminator));
            await raw.whenClosed();
            const all = expected.concat(
              closedEarly ? [] : [{ id: `wrong-${n}`, code: ErrorCode.Unauthorized, closes: true }],
            );
            expect(raw.replies.slice(from).map((r) => asPair({ id: r.id ?? null, code: r.error?.code ?? 0 }))).toEqual(
              all.map(asPair),
            );
            checkWellFormed(raw.replies.slice(from).filter((r) => r.error));
            for (const challenge of raw.replies.slice(from).filter((r) => !r.error))
              expect(Challenge.safeParse(challenge.result).success).toBe(true);
            if (closedEarly && lines[consumed - 1].verdict.kind === 'oversize') stats.oversize++;
            stats.answered += expected.length;
            stats.afterClose += lines.length - consumed;
          }

          const appended = (await bystander.waitFor(byId(`append-${n}`))) as WireReply<ResultOf<'present-review'>>;
          const read = (await bystander.waitFor(byId(`read-${n}`))) as WireReply<ResultOf<'get-review'>>;
          // Only the bystander ever changes the review: no fuzz line got through.
          expect(appended.result!.revision).toBe(n + 1);
          expect(read.result!.revision).toBe(n + 1);
          expect(read.result!.markdown).toMatch(new RegExp(`## Bystander ${n}\\n\\nserved during session ${n}$`));
          stats.bystanderReplies += 2;
        } finally {
          raw.destroy();
        }
      }),
      { seed: SEED, numRuns: SESSIONS, endOnFailure: true },
    );

    const elapsed = Date.now() - started;
    expect(stats.lines).toBe(SESSIONS * LINES_PER_SESSION);
    // Every kind of hostile line was sent, deep nesting to 100,000 levels included.
    for (const kind of kindNames) expect(byKind.get(kind) ?? 0).toBeGreaterThan(0);
    expect(stats.maxDepth).toBe(100_000);
    expect(stats.oversize).toBeGreaterThan(0);

    // The host is whole: every fuzz connection freed, the bystander still served, nothing polluted.
    await until(() => host.server.connectionCount === baseline, 'the window to close every fuzzing connection');
    expect(host.store.current!.sections.map((s) => s.title)).toEqual(
      Array.from({ length: SESSIONS }, (_, i) => `Bystander ${i}`),
    );
    expect(host.editor.opened).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).content).toBeUndefined();
    const late = await RawPeer.connect(host.socketPath);
    expect((await late.hello(host.token, 'late')).result).toBeDefined();
    late.destroy();
    bystander.destroy();

    process.stdout.write(
      `IPC fuzz: ${stats.lines} lines in ${SESSIONS} sessions (${stats.unauthenticatedSessions} unauthenticated) in ${elapsed} ms; ` +
        `${stats.answered} answered with an error, ${stats.afterClose} sent after a close, ${stats.oversize} oversize closes, ` +
        `${stats.bystanderReplies} bystander replies checked, deepest nesting ${stats.maxDepth}\n` +
        `  by kind: ${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ')}\n`,
    );
  });
});

describe('deep nesting at the default line limit', () => {
  it('answers 1,000,000 nested arrays and objects with errors, and goes on serving', async () => {
    const host = await startHost();
    try {
      const raw = await RawPeer.connect(host.socketPath);
      await raw.hello(host.token);
      const depth = 1_000_000;
      const arrays = '['.repeat(depth) + ']'.repeat(depth);
      const objects = '{"a":'.repeat(depth) + '0' + '}'.repeat(depth);
      raw.sendRaw(
        [
          arrays,
          objects,
          '['.repeat(depth),
          `{"type":"request","id":"deep-params","method":"present-review","params":${arrays}}`,
          `{"type":"request","id":"deep-title","method":"present-review","params":{"content":"x","title":${objects}}}`,
          `{"type":"hello","id":"deep-hello","clientNonce":"${'a'.repeat(64)}","protocolVersion":2,"client":${objects}}`,
          JSON.stringify({ type: 'request', id: 'after', method: 'get-review', params: {} }),
        ].join('\n') + '\n',
      );
      expect((await raw.waitFor(byId('after'))).result).toBeDefined();
      // Bad lines are answered on arrival and requests in turn, so the order depends on how reads fall.
      // After the two answers of the handshake (the challenge, then the auth's).
      const answered = raw.replies.slice(2).map((r) => asPair({ id: r.id ?? null, code: r.error?.code ?? 0 }));
      const expected = [
        { id: null, code: ErrorCode.InvalidMessage },
        { id: null, code: ErrorCode.InvalidMessage },
        { id: null, code: ErrorCode.ParseError },
        { id: 'deep-params', code: ErrorCode.InvalidParams },
        { id: 'deep-title', code: ErrorCode.InvalidParams },
        { id: 'deep-hello', code: ErrorCode.InvalidMessage },
        { id: 'after', code: 0 },
      ];
      expect(answered.sort()).toEqual(expected.map(asPair).sort());
      expect(host.store.revision).toBe(0);
      raw.destroy();
    } finally {
      await host.stop();
    }
  });
});

/** Every reply is a well-formed error response with a message a client can show. */
function checkWellFormed(replies: WireReply[]): void {
  for (const reply of replies) {
    expect(ResponseMessage.safeParse(reply).success).toBe(true);
    expect(reply.error?.message).toMatch(/\S/);
  }
}
