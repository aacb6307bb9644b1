// How long the MCP server waits for VS Code, per tool. REDLINE_TIMEOUT_MS and `--timeout` take a
// comma-separated list: a bare number is every tool's timeout, `tool=ms` one tool's, e.g.
// `REDLINE_TIMEOUT_MS=present-review=120000,get-diagnostics=5000` or `--timeout 60000`.
// A setting that cannot be used is reported and skipped, never fatal: a typo in an assistant's
// config must not take its tools away.

import { MAX_REQUEST_TIMEOUT_MS, TIMEOUT_ENV, methodNames, methods, type Method } from '../../shared/protocol';

export const TIMEOUT_ARG = '--timeout';

export interface Timeouts {
  /** Every tool's, where no entry names the tool. */
  readonly all?: number;
  readonly byMethod?: Readonly<Partial<Record<Method, number>>>;
}

export interface ParsedTimeouts {
  readonly timeouts: Timeouts;
  /** One sentence for each part that was skipped or changed, naming it. */
  readonly problems: string[];
}

/** Tools that are not one request to VS Code, and why their entry means nothing. */
const NOT_TIMED: Record<string, string> = {
  'await-review-feedback':
    'it waits for as long as its "timeoutSeconds" argument says; its reads use the get-review-feedback timeout',
};

/** The timeout for one method: its own entry, else the bare number, else the method's default. */
export function timeoutFor(timeouts: Timeouts, method: Method): number {
  return timeouts.byMethod?.[method] ?? timeouts.all ?? methods[method].timeoutMs;
}

/** Reads REDLINE_TIMEOUT_MS, then each `--timeout` argument; later settings win. */
export function parseTimeouts(env: string | undefined, argv: readonly string[]): ParsedTimeouts {
  let all: number | undefined;
  const byMethod: Partial<Record<Method, number>> = {};
  const problems: string[] = [];
  const read = (value: string, from: string) => {
    for (const entry of value.split(',').map((part) => part.trim())) {
      if (entry === '') continue;
      const parsed = parseEntry(entry, from, problems);
      if (parsed === undefined) continue;
      if (parsed.tool === undefined) all = parsed.ms;
      else byMethod[parsed.tool] = parsed.ms;
    }
  };
  if (env !== undefined) read(env, TIMEOUT_ENV);
  for (const value of timeoutArgs(argv, problems)) read(value, TIMEOUT_ARG);
  return { timeouts: { ...(all !== undefined ? { all } : {}), byMethod }, problems };
}

/** The values of `--timeout VALUE` and `--timeout=VALUE`, in order. */
function timeoutArgs(argv: readonly string[], problems: string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith(`${TIMEOUT_ARG}=`)) {
      values.push(arg.slice(TIMEOUT_ARG.length + 1));
    } else if (arg === TIMEOUT_ARG) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--'))
        problems.push(`${TIMEOUT_ARG} needs a value such as 60000 or present-review=120000.`);
      else values.push(argv[++i]);
    }
  }
  return values;
}

function parseEntry(
  entry: string,
  from: string,
  problems: string[],
): { tool: Method | undefined; ms: number } | undefined {
  const equals = entry.indexOf('=');
  const name = equals === -1 ? undefined : entry.slice(0, equals).trim();
  const value = equals === -1 ? entry : entry.slice(equals + 1).trim();
  const where = `"${clip(entry)}" in ${from}`;
  if (name !== undefined && !isTool(name)) {
    problems.push(
      name in NOT_TIMED
        ? `${where} is ignored: ${name} has no timeout of its own (${NOT_TIMED[name]}).`
        : `${where} names no tool: "${clip(name)}" is unknown. Names with a timeout (the tools, and what resources and prompts read): ${methodNames.join(', ')}.`,
    );
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) === 0) {
    problems.push(`${where} is ignored: "${clip(value)}" is not a whole number of milliseconds above 0.`);
    return undefined;
  }
  const ms = Number(value);
  if (ms > MAX_REQUEST_TIMEOUT_MS) {
    problems.push(
      `${where} is more than the longest timeout, ${MAX_REQUEST_TIMEOUT_MS} ms (${MAX_REQUEST_TIMEOUT_MS / 60_000} minutes); that is used instead.`,
    );
    return { tool: name, ms: MAX_REQUEST_TIMEOUT_MS };
  }
  return { tool: name, ms };
}

function isTool(name: string): name is Method {
  return (methodNames as string[]).includes(name);
}

/** A setting is quoted back, but a pasted megabyte is not. */
function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
