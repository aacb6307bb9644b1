// Hostile lines for the IPC server, as fast-check arbitraries, and the oracle that says what the
// server must answer to each. The oracle takes shared/protocol.ts as the specification: a line that
// is not JSON is a parse error, one that fails the message schema is an invalid message, and so on.

import fc from 'fast-check';
import { ClientMessage, ErrorCode, PROTOCOL_VERSION, isMethod, methodNames, methods } from '../../shared/protocol';

/** The fuzz server's line limit: small, so oversize lines are cheap, yet room for 100,000 nested arrays. */
export const FUZZ_MAX_LINE_BYTES = 256 * 1024;
/** What a peer may send in all before its auth is accepted (the server's default). */
export const PRE_AUTH_MAX_BYTES = 64 * 1024;

interface RawLine {
  /** Which generator made it, for the coverage report. */
  readonly kind: string;
  /** Without its newline; never contains one. */
  readonly bytes: Buffer;
  /** Nesting depth, for the deep-nesting lines. */
  readonly depth?: number;
}

export interface FuzzLine extends RawLine {
  readonly verdict: Verdict;
}

/** What the server does with one line. */
export type Verdict =
  | { readonly kind: 'blank' }
  | { readonly kind: 'oversize' }
  | { readonly kind: 'parse-error' }
  /** `wrongVersion`: a hello of another protocol version, refused as such before authentication. */
  | { readonly kind: 'invalid-message'; readonly id: string | null; readonly wrongVersion: boolean }
  | { readonly kind: 'hello'; readonly id: string; readonly wrongVersion: boolean }
  | { readonly kind: 'auth' | 'cancel'; readonly id: string }
  | { readonly kind: 'request'; readonly id: string; readonly known: boolean; readonly paramsValid: boolean };

export interface ExpectedReply {
  readonly id: string | null;
  readonly code: number;
  /** The server closes the connection after this reply. */
  readonly closes: boolean;
}

/** The line as the server's framing sees it: UTF-8 (invalid bytes become U+FFFD), one trailing CR dropped. */
function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** The id an error reply echoes: a string of 1 to 64 characters, else null. */
function echoedId(json: unknown): string | null {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}

export function classify(bytes: Buffer, maxLineBytes = FUZZ_MAX_LINE_BYTES): Verdict {
  if (bytes.length > maxLineBytes) return { kind: 'oversize' };
  const text = decode(bytes);
  if (text.trim() === '') return { kind: 'blank' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'parse-error' };
  }
  const probe = json as { type?: unknown; protocolVersion?: unknown } | null;
  const wrongVersion = probe?.type === 'hello' && probe.protocolVersion !== PROTOCOL_VERSION;
  const message = ClientMessage.safeParse(json);
  if (!message.success) return { kind: 'invalid-message', id: echoedId(json), wrongVersion };
  const { data } = message;
  if (data.type === 'hello') return { kind: 'hello', id: data.id, wrongVersion };
  if (data.type !== 'request') return { kind: data.type, id: data.id };
  if (!isMethod(data.method)) return { kind: 'request', id: data.id, known: false, paramsValid: false };
  const paramsValid = methods[data.method].params.safeParse(data.params ?? {}).success;
  return { kind: 'request', id: data.id, known: true, paramsValid };
}

/** The reply a line must get; undefined when it gets none (blank lines, and cancels on an open connection). */
export function expectedReply(verdict: Verdict, authenticated: boolean): ExpectedReply | undefined {
  switch (verdict.kind) {
    case 'blank':
      return undefined;
    case 'oversize':
      return { id: null, code: ErrorCode.LineTooLong, closes: true };
    case 'parse-error':
      return { id: null, code: ErrorCode.ParseError, closes: false };
    case 'invalid-message':
      return { id: verdict.id, code: ErrorCode.InvalidMessage, closes: false };
  }
  if (!authenticated)
    throw new Error('before authentication, use expectedBeforeAuth: the answers depend on the lines before');
  switch (verdict.kind) {
    case 'hello':
    case 'auth':
      return { id: verdict.id, code: ErrorCode.InvalidMessage, closes: false };
    case 'cancel':
      return undefined;
    case 'request':
      if (!verdict.known) return { id: verdict.id, code: ErrorCode.MethodNotFound, closes: false };
      if (!verdict.paramsValid) return { id: verdict.id, code: ErrorCode.InvalidParams, closes: false };
      throw new Error(`a fuzz line is a valid ${verdict.id} request; the generators must not make those`);
  }
}

/**
 * What a connection that has not authenticated must be answered, line by line, up to the close:
 * the whole stream has a byte budget, the first invalid line closes it, and only a first hello of
 * this protocol version gets an answer (a challenge, code 0 here) that leaves it open.
 */
export function expectedBeforeAuth(lines: readonly FuzzLine[]): { replies: ExpectedReply[]; consumed: number } {
  const replies: ExpectedReply[] = [];
  let bytes = 0;
  let challenged = false;
  for (let i = 0; i < lines.length; i++) {
    const { verdict } = lines[i];
    bytes += lines[i].bytes.length + 1;
    const reply = ((): ExpectedReply | undefined => {
      if (bytes > PRE_AUTH_MAX_BYTES) return { id: null, code: ErrorCode.LineTooLong, closes: true };
      switch (verdict.kind) {
        case 'blank':
          return undefined;
        case 'oversize':
          throw new Error('an oversize line is over the pre-auth budget too');
        case 'parse-error':
          return { id: null, code: ErrorCode.ParseError, closes: true };
        case 'invalid-message':
          return {
            id: verdict.id,
            code: verdict.wrongVersion ? ErrorCode.VersionMismatch : ErrorCode.InvalidMessage,
            closes: true,
          };
        case 'hello':
          if (verdict.wrongVersion) return { id: verdict.id, code: ErrorCode.VersionMismatch, closes: true };
          if (challenged) return { id: verdict.id, code: ErrorCode.Unauthorized, closes: true };
          challenged = true;
          return { id: verdict.id, code: 0, closes: false };
        default:
          // A request, a cancel, or an auth that cannot hold a proof of the token.
          return { id: verdict.id, code: ErrorCode.Unauthorized, closes: true };
      }
    })();
    if (!reply) continue;
    replies.push(reply);
    if (reply.closes) return { replies, consumed: i + 1 };
  }
  return { replies, consumed: lines.length };
}

/** A line the fuzz may send in a session's body: every one of them must get exactly one error reply. */
function isErrorLine(line: FuzzLine): boolean {
  const { verdict } = line;
  if (verdict.kind === 'blank' || verdict.kind === 'oversize' || verdict.kind === 'cancel') return false;
  return verdict.kind !== 'request' || !verdict.known || !verdict.paramsValid;
}

/** Classified once (a 100,000-deep line takes a while to parse), and printed short in counterexamples. */
function judged(raw: RawLine): FuzzLine {
  const value: FuzzLine = { ...raw, verdict: classify(raw.bytes) };
  Object.defineProperty(value, fc.toStringMethod, {
    value: () =>
      `${raw.kind}(${raw.bytes.length} bytes: ${JSON.stringify(raw.bytes.subarray(0, 80).toString('latin1'))})`,
  });
  return value;
}

// ---- arbitraries ------------------------------------------------------------------------------

const NEWLINE = 0x0a;

function line(kind: string, content: string | Buffer, depth?: number): RawLine {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  // A newline would make two lines of it; a vertical tab keeps the byte count and the garbage.
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) bytes[i] = 0x0b;
  return { kind, bytes, depth };
}

const goodId = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 32 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', '\ud800', '\u202e', 'x'.repeat(64), ' '),
  },
);
const badId = fc.oneof(
  fc.constantFrom<unknown>('', 'x'.repeat(65), null, true, 0, -1, 1e308, [], {}, ['id']),
  fc.integer(),
  fc.string({ minLength: 65, maxLength: 100 }),
);
const anyJson = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);
const notString = anyJson.filter((value) => typeof value !== 'string');

const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('hex'));
const hello = fc.record({
  type: fc.constant('hello'),
  id: goodId,
  clientNonce: fc.oneof(hex64, fc.string({ maxLength: 80 })),
  protocolVersion: fc.oneof(fc.constant(PROTOCOL_VERSION), fc.constant(1), fc.integer()),
  client: fc.record({ name: fc.string({ maxLength: 200 }), version: fc.string({ maxLength: 50 }), pid: fc.integer() }),
});
const auth = fc.record({
  type: fc.constant('auth'),
  id: goodId,
  clientProof: fc.oneof(hex64, fc.string({ maxLength: 80 })),
});
const request = fc.record({
  type: fc.constant('request'),
  id: goodId,
  method: fc.constantFrom(...methodNames),
  params: fc.oneof(fc.constant({ content: 'x' }), fc.constant({}), anyJson),
});
const cancel = fc.record({ type: fc.constant('cancel'), id: goodId });
const message = fc.oneof(hello, auth, request, cancel);

const invalidParams = fc.oneof(
  fc.tuple(
    fc.constant('present-review'),
    fc.oneof(
      fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.array(fc.integer())),
      fc.record({ content: notString }),
      fc.record({
        content: fc.string(),
        mode: fc.string().filter((m) => !['replace', 'append', 'update-section'].includes(m)),
      }),
      fc.record({
        content: fc.string(),
        mode: fc.constant('update-section'),
        section: fc.constantFrom(undefined, '', ' ', '\t\t'),
      }),
      fc.record({ content: fc.string(), section: notString }),
      fc.record({ content: fc.string(), title: fc.integer({ min: 501, max: 700 }).map((n) => 't'.repeat(n)) }),
      fc.record({ content: fc.string(), cwd: notString }),
      fc.record({ mode: fc.constantFrom('replace', 'append') }),
    ),
  ),
  fc.tuple(
    fc.constantFrom('get-review', 'get-selection'),
    fc.oneof(
      fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { minKeys: 1, maxKeys: 3 }),
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.array(anyJson),
    ),
  ),
  fc.tuple(
    fc.constant('open-location'),
    fc.oneof(
      fc.constant({ reference: '' }),
      fc.integer({ min: 4097, max: 5000 }).map((n) => ({ reference: 'a'.repeat(n) })),
      fc.record({ reference: notString }),
      fc.constant({}),
      fc.record({ reference: fc.constant('src/a.ts:1'), cwd: notString }),
    ),
  ),
);

const hugeNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e308',
  '-0',
  '4.9e-325',
  '123456789012345678901234567890',
  '9007199254740993',
  `0.${'0'.repeat(400)}1`,
  `1${'0'.repeat(10_000)}`,
);

const badUtf8 = fc.constantFrom(
  [0xc0, 0xaf], // overlong "/"
  [0xe0, 0x80, 0xaf], // overlong
  [0xed, 0xa0, 0x80], // an encoded surrogate
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
  [0xf8, 0x88, 0x80, 0x80, 0x80], // five-byte form
  [0xff],
  [0xfe],
  [0x80],
  [0xe2, 0x82], // truncated
  [0x00],
  [0xef, 0xbb, 0xbf], // a BOM
);

const DEPTH_CAP = {
  array: 100_000,
  unbalanced: 100_000,
  params: 100_000,
  object: 50_000,
  mixed: 40_000,
  hello: 40_000,
} as const;

function deepLine(shape: keyof typeof DEPTH_CAP, wanted: number, id: string): RawLine {
  const depth = Math.min(wanted, DEPTH_CAP[shape]);
  const arrays = '['.repeat(depth) + ']'.repeat(depth);
  const quotedId = JSON.stringify(id);
  const text = {
    array: () => arrays,
    unbalanced: () => '['.repeat(depth) + ']'.repeat(depth - 1),
    params: () => `{"type":"request","id":${quotedId},"method":"present-review","params":${arrays}}`,
    object: () => '{"":'.repeat(depth) + '0' + '}'.repeat(depth),
    mixed: () => '[{"":'.repeat(depth) + '0' + '}]'.repeat(depth),
    hello: () =>
      `{"type":"hello","id":${quotedId},"clientNonce":"${'a'.repeat(64)}","protocolVersion":${PROTOCOL_VERSION},"client":${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}}`,
  }[shape]();
  return line('deep-nesting', text, depth);
}

const kinds: Array<{ weight: number; arbitrary: fc.Arbitrary<RawLine> }> = [
  {
    weight: 14,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 512 }).map((bytes) => line('random-bytes', Buffer.from(bytes))),
  },
  {
    weight: 7,
    arbitrary: fc
      .tuple(
        fc.array(fc.oneof(badUtf8, fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.boolean(),
        goodId,
      )
      .map(([pieces, inString, id]) => {
        const bytes = Buffer.from(pieces.flat());
        if (!inString) return line('invalid-utf8', bytes);
        const head = Buffer.from(
          `{"type":"request","id":${JSON.stringify(id)},"method":"open-location","params":{"reference":"`,
        );
        return line('invalid-utf8', Buffer.concat([head, bytes, Buffer.from('","cwd":7}}')]));
      }),
  },
  {
    weight: 12,
    arbitrary: fc.tuple(message, fc.double({ min: 0, max: 1, noNaN: true })).map(([m, at]) => {
      const bytes = Buffer.from(JSON.stringify(m));
      // Cut by bytes, so the cut may fall inside a multi-byte character.
      return line(
        'truncated-json',
        bytes.subarray(0, Math.max(1, Math.min(bytes.length - 1, Math.floor(bytes.length * at)))),
      );
    }),
  },
  {
    weight: 12,
    arbitrary: fc
      .tuple(
        message,
        fc.constantFrom(
          'type',
          'id',
          'clientNonce',
          'clientProof',
          'protocolVersion',
          'client',
          'method',
          'params',
          'content',
          'mode',
          'section',
          'title',
          'reference',
        ),
        anyJson,
      )
      .map(([m, field, value]) => {
        const broken: Record<string, unknown> = { ...m };
        if (field in broken || ['type', 'id', 'method', 'params'].includes(field)) broken[field] = value;
        else
          broken.params = {
            ...(typeof broken.params === 'object' && broken.params !== null ? broken.params : {}),
            [field]: value,
          };
        return line('wrong-types', JSON.stringify(broken));
      }),
  },
  {
    weight: 8,
    arbitrary: fc.tuple(hugeNumber, goodId, fc.integer({ min: 0, max: 7 })).map(([n, id, form]) => {
      const q = JSON.stringify(id);
      const texts = [
        n,
        `[${n},${n}]`,
        `{"type":"hello","id":${q},"clientNonce":"${'b'.repeat(64)}","protocolVersion":${n},"client":{"name":"n","version":"1","pid":${n}}}`,
        `{"type":"request","id":${q},"method":"present-review","params":{"content":${n}}}`,
        `{"type":"request","id":${n},"method":"get-review","params":{}}`,
        `{"type":"request","id":${q},"method":"open-location","params":{"reference":"a.ts","cwd":${n}}}`,
        `{"type":"request","id":${q},"method":"get-selection","params":{"n":${n}}}`,
        `{"type":${n},"id":${q}}`,
      ];
      return line('huge-numbers', texts[form]);
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...(Object.keys(DEPTH_CAP) as Array<keyof typeof DEPTH_CAP>)),
        fc.constantFrom(1_000, 10_000, 100_000),
        goodId,
      )
      .map(([shape, depth, id]) => deepLine(shape, depth, id)),
  },
  {
    weight: 10,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom<unknown>(
            'launch-missiles',
            'Request',
            'HELLO',
            'response',
            'event',
            '__proto__',
            '',
            'hello ',
            undefined,
          ),
          fc.string(),
          anyJson,
        ),
        goodId,
        fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 }),
        fc.boolean(),
      )
      .map(([type, id, extra, wrapped]) => {
        const m = { ...extra, type, id, method: 'get-review', params: {} };
        return line('unknown-type', JSON.stringify(wrapped ? [m] : m));
      }),
  },
  {
    weight: 14,
    arbitrary: fc
      .tuple(invalidParams, goodId)
      .map(([[method, params], id]) => line('invalid-params', JSON.stringify({ type: 'request', id, method, params }))),
  },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'toString',
            'hasOwnProperty',
            'valueOf',
            'isPrototypeOf',
            'present_review',
            'PRESENT-REVIEW',
            'present-review ',
            '',
            'x'.repeat(100),
          ),
          fc.string({ maxLength: 100 }),
        ),
        goodId,
        anyJson,
      )
      .map(([method, id, params]) => line('unknown-method', JSON.stringify({ type: 'request', id, method, params }))),
  },
  { weight: 5, arbitrary: fc.oneof(hello, auth).map((m) => line('second-hello', JSON.stringify(m))) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(badId, anyJson)
      .map(([id, extra]) => line('bad-cancel', JSON.stringify({ type: 'cancel', id, extra }))),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(goodId, fc.integer({ min: 0, max: 4 })).map(([id, form]) => {
      const q = JSON.stringify(id);
      const texts = [
        '{"__proto__":{"type":"request","id":"p","method":"get-review","params":{}}}',
        `{"type":"request","id":${q},"method":"constructor","params":{"prototype":{"polluted":true}}}`,
        `{"type":"request","id":${q},"method":"present-review","params":{"__proto__":{"content":"polluted","mode":"replace"}}}`,
        `{"type":"request","id":${q},"method":"present-review","params":{"constructor":{"prototype":{"polluted":true}},"content":1}}`,
        `{"type":"hello","__proto__":{"token":"x","protocolVersion":1},"id":${q}}`,
      ];
      return line('prototype-keys', texts[form]);
    }),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(message, fc.integer({ min: 0, max: 5 })).map(([m, form]) => {
      const json = JSON.stringify(m);
      const texts = [`\ufeff${json}`, `\u0000${json}`, `${json}\u0000`, `\u000b${json}`, `${json}\u2028`, `${json}}`];
      return line('bom-and-controls', texts[form]);
    }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(goodId, fc.boolean()).map(([id, asJson]) => {
      // Exactly at the limit: still a line, answered like any other.
      if (!asJson) return line('at-limit', Buffer.alloc(FUZZ_MAX_LINE_BYTES, 'x'));
      const json = JSON.stringify({ type: 'request', id, method: 'present-review', params: { content: 5 } });
      return line(
        'at-limit',
        Buffer.concat([Buffer.from(json), Buffer.alloc(FUZZ_MAX_LINE_BYTES - Buffer.byteLength(json), ' ')]),
      );
    }),
  },
];

/** One line that must get exactly one error reply, and leaves the connection open when authenticated. */
export const fuzzLine: fc.Arbitrary<FuzzLine> = fc
  .oneof(...kinds)
  .map(judged)
  .filter(isErrorLine);

/** A line over the limit: the server answers LineTooLong and closes. Some are valid requests, too long. */
export const oversizeLine: fc.Arbitrary<FuzzLine> = fc
  .tuple(
    fc.integer({ min: 1, max: 4096 }),
    fc.constantFrom('filler', 'valid-request', 'random'),
    fc.uint8Array({ minLength: 1, maxLength: 64 }),
  )
  .map(([extra, fill, seed]) => judged(oversize(FUZZ_MAX_LINE_BYTES + extra, fill, seed)));

function oversize(size: number, fill: string, seed: Uint8Array): RawLine {
  if (fill === 'filler') return line('oversize', Buffer.alloc(size, 'x'));
  if (fill === 'random') return line('oversize', Buffer.alloc(size, Buffer.from(seed)));
  const head = '{"type":"request","id":"too-long","method":"present-review","params":{"content":"';
  return line('oversize', head + '#'.repeat(size - head.length - 3) + '"}}');
}

export const kindNames = [
  'random-bytes',
  'invalid-utf8',
  'truncated-json',
  'wrong-types',
  'huge-numbers',
  'deep-nesting',
  'unknown-type',
  'invalid-params',
  'unknown-method',
  'second-hello',
  'bad-cancel',
  'prototype-keys',
  'bom-and-controls',
  'at-limit',
] as const;
