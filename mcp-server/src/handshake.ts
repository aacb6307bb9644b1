// The MCP handshake without the SDK: initialize, notifications/initialized and tools/list get the
// replies the build captured from the full server (handshakeCapture.ts), so a client has its tool
// list before the SDK and zod are loaded. Any message this module is not certain the full server
// would answer in the same way is left to the full server, which reads the stream from there.

import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The full server's replies to the handshake, captured when the bundle is built. */
export interface PublishedHandshake {
  /** The initialize result for each protocol version the server accepts, keyed by that version. */
  readonly initialize: Readonly<Record<string, object>>;
  /** The initialize result when the client asks for any other version. */
  readonly initializeOtherwise: object;
  readonly toolsList: object;
}

/** A handshake message this module answers itself. */
export type HandshakeMessage =
  | { readonly method: 'initialize'; readonly id: RequestId; readonly protocolVersion: string }
  | { readonly method: 'notifications/initialized' }
  | { readonly method: 'tools/list'; readonly id: RequestId };

/** What the full server needs to carry on where the handshake left off. */
export interface HandOff {
  /**
   * The initialize request and initialized notification as received: the full server reads them
   * first, so that it knows the client as it would have, and does not answer them again.
   */
  readonly replay: Buffer;
  /** The id of the initialize request already answered, if one was. */
  readonly answeredInitialize: RequestId | undefined;
  /** Everything received and not handled here, from the first message left to the full server. */
  readonly rest: Buffer;
}

export interface HandshakeIo {
  /** Writes one line to stdout, and calls `written` once it has been handed to the OS. */
  write(line: string, written: () => void): void;
  handOff(state: HandOff): void;
}

/**
 * A handshake message is a few hundred bytes; a longer unfinished line is something else (a
 * review on its way), and the full server should be loading while the rest of it arrives.
 */
export const MAX_HANDSHAKE_LINE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

/**
 * Answers the handshake from stdin chunks, then hands the stream to the full server: right away
 * at the first message it does not answer, and otherwise once tools/list has been answered, so
 * that the SDK loads while the assistant is still deciding what to call.
 */
export class HandshakeResponder {
  private received: Buffer = Buffer.alloc(0);
  private readonly replay: Buffer[] = [];
  private answeredInitialize: RequestId | undefined;
  private handedOff = false;

  constructor(
    private readonly published: PublishedHandshake,
    private readonly io: HandshakeIo,
  ) {}

  push(chunk: Buffer): void {
    if (this.handedOff) throw new Error('The handshake was already handed off.');
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    for (let newline = this.received.indexOf(NEWLINE); newline !== -1; newline = this.received.indexOf(NEWLINE)) {
      const message = recognizeHandshake(this.received.toString('utf8', 0, newline));
      if (!message || (message.method === 'initialize' && this.answeredInitialize !== undefined)) {
        this.handOff();
        return;
      }
      const line = this.received.subarray(0, newline + 1);
      this.received = this.received.subarray(newline + 1);
      this.answer(message, line);
    }
    if (this.received.length > MAX_HANDSHAKE_LINE_BYTES) this.handOff();
  }

  private answer(message: HandshakeMessage, line: Buffer): void {
    switch (message.method) {
      case 'initialize': {
        const { initialize } = this.published;
        const result = Object.hasOwn(initialize, message.protocolVersion)
          ? initialize[message.protocolVersion]
          : this.published.initializeOtherwise;
        this.replay.push(line);
        this.answeredInitialize = message.id;
        this.io.write(response(message.id, result), () => undefined);
        return;
      }
      case 'notifications/initialized':
        this.replay.push(line);
        return;
      case 'tools/list':
        this.io.write(response(message.id, this.published.toolsList), () => setImmediate(() => this.handOff()));
        return;
    }
  }

  private handOff(): void {
    if (this.handedOff) return;
    this.handedOff = true;
    const rest = this.received;
    this.received = Buffer.alloc(0);
    this.io.handOff({ replay: Buffer.concat(this.replay), answeredInitialize: this.answeredInitialize, rest });
  }
}

/** The SDK's own shape of a reply (Protocol._onrequest). */
function response(id: RequestId, result: object): string {
  return JSON.stringify({ result, jsonrpc: '2.0', id }) + '\n';
}

// ---- recognizing the handshake --------------------------------------------------------------
// Accepts only messages that the SDK's schemas accept (types.ts: JSONRPCMessageSchema, then
// InitializeRequestSchema, InitializedNotificationSchema or ListToolsRequestSchema) and that it
// answers without looking further: no `_meta` (progress tokens, related tasks), no task
// capabilities, no icons. Refusing costs a few milliseconds; accepting wrongly would answer a
// request the full server would have refused, so every check errs towards refusing.
// test/unit/mcpToolSchemas.test.ts holds this to the SDK's schemas.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
const hasOnlyKeys = (value: Json, keys: readonly string[]) => Object.keys(value).every((key) => keys.includes(key));
const isRequestId = (value: unknown): value is RequestId => isString(value) || Number.isSafeInteger(value);
const isObjectOfObjects = (value: unknown) => isObject(value) && Object.values(value).every(isObject);

/** The client capabilities checked here; an unknown one is dropped by the SDK, and `tasks` is left to it. */
const capabilityChecks = new Map<string, (value: unknown) => boolean>([
  ['roots', (roots) => isObject(roots) && optional(roots.listChanged, isBoolean)],
  ['sampling', (sampling) => isObject(sampling) && optional(sampling.context, isObject) && optional(sampling.tools, isObject)],
  [
    'elicitation',
    (elicitation) =>
      isObject(elicitation) &&
      optional(elicitation.form, (form) => isObject(form) && optional(form.applyDefaults, isBoolean)) &&
      optional(elicitation.url, isObject),
  ],
  ['experimental', isObjectOfObjects],
  ['extensions', isObjectOfObjects],
  ['tasks', () => false],
]);

function isInitializeParams(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || params._meta !== undefined || !isString(params.protocolVersion)) return false;
  const { capabilities, clientInfo } = params;
  return (
    isObject(capabilities) &&
    Object.entries(capabilities).every(([name, value]) => capabilityChecks.get(name)?.(value) ?? true) &&
    isObject(clientInfo) &&
    isString(clientInfo.name) &&
    isString(clientInfo.version) &&
    optional(clientInfo.title, isString) &&
    optional(clientInfo.websiteUrl, isString) &&
    optional(clientInfo.description, isString) &&
    clientInfo.icons === undefined
  );
}

/** The handshake message in one line of stdin, or undefined when it is anything else. */
export function recognizeHandshake(line: string): HandshakeMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = message;
  if (id === undefined) {
    const isBareParams = (value: unknown) => isObject(value) && value._meta === undefined;
    return method === 'notifications/initialized' && hasOnlyKeys(message, ['jsonrpc', 'method', 'params']) && optional(params, isBareParams)
      ? { method }
      : undefined;
  }
  if (!hasOnlyKeys(message, ['jsonrpc', 'id', 'method', 'params']) || !isRequestId(id)) return undefined;
  if (method === 'tools/list') {
    const isPage = (value: unknown) => isObject(value) && hasOnlyKeys(value, ['cursor']) && optional(value.cursor, isString);
    return optional(params, isPage) ? { method, id } : undefined;
  }
  if (method === 'initialize' && isInitializeParams(params)) return { method, id, protocolVersion: params.protocolVersion };
  return undefined;
}
