// Recognizes, without the SDK, the messages a client opens with (`initialize`, `server/discover`,
// the lists, `logging/setLevel`, `ping`), and only in the plain form the SDK answers without
// looking further; anything unusual is left to the full server. Every check errs towards refusing:
// a refusal only waits for the full server, while a wrong acceptance would give a wrong answer.

// Its imports are a list of strings and a check with no imports: protocolLog.ts imports nothing
// from the SDK but types, and uiExtension.ts nothing at all.
import { declaresUi } from '../appView/uiExtension';
import { LOG_LEVELS } from '../protocolLog';

/** A JSON-RPC id, as MCP allows it. */
export type RequestId = string | number;

/** The revision of the per-request envelope; the one a 2026-07-28 client sends. */
export const MODERN_REVISION = '2026-07-28';
export const LIST_METHODS = ['tools/list', 'prompts/list', 'resources/templates/list'] as const;
export type ListMethod = (typeof LIST_METHODS)[number];

/**
 * `ui` says whether the client declared the MCP Apps extension (appView/uiExtension.ts): in its
 * initialize, or in a 2026-07-28 request's envelope. A 2025-era list has no say of its own.
 */
export type OpeningMessage =
  | { readonly method: 'initialize'; readonly id: RequestId; readonly protocolVersion: string; readonly ui: boolean }
  | { readonly method: 'notifications/initialized' }
  | { readonly method: 'server/discover'; readonly id: RequestId; readonly ui: boolean }
  | { readonly method: ListMethod; readonly id: RequestId; readonly modern: boolean; readonly ui: boolean }
  | { readonly method: 'logging/setLevel' | 'ping'; readonly id: RequestId };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
const hasOnlyKeys = (value: Json, keys: readonly string[]) => Object.keys(value).every((key) => keys.includes(key));
const isRequestId = (value: unknown): value is RequestId => isString(value) || Number.isSafeInteger(value);
const isObjectOfObjects = (value: unknown) => isObject(value) && Object.values(value).every(isObject);

/** The client capabilities checked here; an unknown one is dropped by the SDK, and `tasks` is left to it. */
const capabilityChecks = new Map<string, (value: unknown) => boolean>([
  ['roots', (roots) => isObject(roots) && optional(roots.listChanged, isBoolean)],
  [
    'sampling',
    (sampling) => isObject(sampling) && optional(sampling.context, isObject) && optional(sampling.tools, isObject),
  ],
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

const isCapabilities = (value: unknown) =>
  isObject(value) && Object.entries(value).every(([name, entry]) => capabilityChecks.get(name)?.(entry) ?? true);

const isClientInfo = (value: unknown) =>
  isObject(value) &&
  isString(value.name) &&
  isString(value.version) &&
  optional(value.title, isString) &&
  optional(value.websiteUrl, isString) &&
  optional(value.description, isString) &&
  value.icons === undefined;

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** A 2026-07-28 envelope, complete, and nothing else in `_meta` but a progress token. */
function isModernMeta(meta: unknown): boolean {
  return (
    isObject(meta) &&
    hasOnlyKeys(meta, [PROTOCOL_VERSION, CLIENT_CAPABILITIES, CLIENT_INFO, 'progressToken']) &&
    meta[PROTOCOL_VERSION] === MODERN_REVISION &&
    isCapabilities(meta[CLIENT_CAPABILITIES]) &&
    isClientInfo(meta[CLIENT_INFO]) &&
    optional(meta.progressToken, isRequestId)
  );
}

/** Before 2026-07-28 a `_meta` here may carry a progress token (Codex sends one), nothing else. */
const isLegacyMeta = (meta: unknown) =>
  meta === undefined ||
  (isObject(meta) && hasOnlyKeys(meta, ['progressToken']) && optional(meta.progressToken, isRequestId));

/** Params of a request with no parameters of its own: `_meta` at most. */
function bareParams(params: unknown): { modern: boolean; ui: boolean } | undefined {
  if (params === undefined) return { modern: false, ui: false };
  if (!isObject(params) || !hasOnlyKeys(params, ['_meta'])) return undefined;
  if (isModernMeta(params._meta)) return { modern: true, ui: declaresUi((params._meta as Json)[CLIENT_CAPABILITIES]) };
  return isLegacyMeta(params._meta) ? { modern: false, ui: false } : undefined;
}

function isInitializeParams(params: unknown): params is { protocolVersion: string; capabilities: unknown } {
  return (
    isObject(params) &&
    hasOnlyKeys(params, ['protocolVersion', 'capabilities', 'clientInfo']) &&
    isString(params.protocolVersion) &&
    isCapabilities(params.capabilities) &&
    isClientInfo(params.clientInfo)
  );
}

/** The opening message in one line of stdin, or undefined when it is anything else. */
export function recognizeOpening(line: string): OpeningMessage | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = message;
  if (id === undefined) {
    return method === 'notifications/initialized' &&
      hasOnlyKeys(message, ['jsonrpc', 'method', 'params']) &&
      bareParams(params)?.modern === false
      ? { method }
      : undefined;
  }
  if (!hasOnlyKeys(message, ['jsonrpc', 'id', 'method', 'params']) || !isRequestId(id)) return undefined;
  if (method === 'initialize')
    return isInitializeParams(params)
      ? { method, id, protocolVersion: params.protocolVersion, ui: declaresUi(params.capabilities) }
      : undefined;
  if (method === 'logging/setLevel') {
    const isLevel =
      isObject(params) && hasOnlyKeys(params, ['level']) && (LOG_LEVELS as readonly unknown[]).includes(params.level);
    return isLevel ? { method, id } : undefined;
  }
  const bare = bareParams(params);
  if (!bare) return undefined;
  if (method === 'server/discover') return bare.modern ? { method, id, ui: bare.ui } : undefined;
  if (method === 'ping') return bare.modern ? undefined : { method, id };
  if ((LIST_METHODS as readonly unknown[]).includes(method))
    return { method: method as ListMethod, id, modern: bare.modern, ui: bare.ui };
  return undefined;
}
