// Runs test/python/drive_server.py, the official Python MCP SDK driving the built server, for
// test/integration/pythonClient.test.ts: first the install of that SDK into .cache/python-mcp/
// (install.mjs, a no-op once done), then the script, each bounded in time and failing with its
// whole stderr, which for the script includes the stderr of every server it started.

import type { DiscoverResult, InitializeResult, ListToolsResult, Tool } from '@modelcontextprotocol/server';
import { spawn } from 'child_process';
import * as path from 'path';

const INSTALLER = path.join(__dirname, 'install.mjs');
const DRIVER = path.join(__dirname, 'drive_server.py');

/** Longer than every bounded step of install.mjs that can run on a machine (apt-get, venv, pip) together. */
export const INSTALL_TIMEOUT_MS = 30 * 60_000;

interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** `echo`: also pass the child's stderr on as it comes (the installer's progress on a first run). */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  echo = false,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    // SIGTERM first: the installer then stops the steps it started (processes.mjs). The servers the
    // Python script started end by themselves when its pipes close.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function failure(what: string, finished: Finished, timeoutMs: number, how?: string): Error {
  how ??= finished.timedOut
    ? `did not finish within ${timeoutMs / 1000} s`
    : `failed (exit ${finished.code ?? finished.signal})`;
  return new Error(
    `${what} ${how}.\n--- stderr ---\n${finished.stderr.trim()}\n--- stdout ---\n${finished.stdout.trim()}`,
  );
}

/** The venv's python, with the pinned mcp installed; throws, saying what to run, when it cannot be had. */
export async function installPythonMcp(): Promise<{ python: string; mcp: string }> {
  const finished = await run(process.execPath, [INSTALLER], process.env, INSTALL_TIMEOUT_MS, true);
  if (finished.code !== 0)
    throw failure('Installing the Python MCP SDK (node test/python/install.mjs)', finished, INSTALL_TIMEOUT_MS);
  return JSON.parse(finished.stdout);
}

export interface DriverConfig {
  readonly server: { command: string; args: string[]; env: Record<string, string>; cwd: string };
  readonly clientName: string;
  readonly calls: ReadonlyArray<{ name: string; arguments?: Record<string, unknown> }>;
  readonly autoCalls: ReadonlyArray<{ name: string; arguments?: Record<string, unknown> }>;
  readonly timeoutSeconds: number;
}

/** A JSON-RPC reply as the server wrote it. */
type Reply<T> = { readonly result: T };

export interface ToolCallReport {
  readonly name: string;
  readonly isError: boolean;
  readonly structuredContent: Record<string, unknown> | null;
  readonly text: string[];
  readonly validatedAgainstOutputSchema: boolean;
}

/** One initialize / initialized / tools/list on a fresh server; `initialize` and `toolsList` are the raw replies. */
export interface HandshakeReport {
  readonly requested: string;
  readonly negotiated: string;
  readonly initialize: Reply<InitializeResult>;
  readonly toolsList: Reply<ListToolsResult>;
  /** Every line the client wrote to the server's stdin. */
  readonly sent: string[];
}

/** What drive_server.py prints; its docstring says how each part is made. */
export interface DriverReport {
  readonly sdk: { mcp: string; python: string; supportedProtocolVersions: string[]; latestHandshakeVersion: string };
  readonly versions: readonly HandshakeReport[];
  readonly plain: { negotiated: string; tools: Tool[]; calls: ToolCallReport[]; sent: string[] };
  readonly auto: {
    negotiated: string;
    methods: Array<string | undefined>;
    discover: Reply<DiscoverResult>;
    calls: ToolCallReport[];
  };
}

/** Runs drive_server.py with the venv's python; the whole run is bounded by `config.timeoutSeconds` (and a little more here). */
export async function driveWithPython(python: string, config: DriverConfig): Promise<DriverReport> {
  // Nothing from an outer Python setup may change which packages the script imports.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['PYTHONPATH', 'PYTHONHOME', 'VIRTUAL_ENV'].includes(name)),
  );
  const timeoutMs = (config.timeoutSeconds + 15) * 1000;
  const finished = await run(python, [DRIVER, JSON.stringify(config)], env, timeoutMs);
  if (finished.code !== 0) throw failure('test/python/drive_server.py', finished, timeoutMs);
  try {
    return JSON.parse(finished.stdout);
  } catch {
    throw failure('test/python/drive_server.py', finished, timeoutMs, 'exited 0 without printing a JSON report');
  }
}
