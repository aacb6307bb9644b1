// `node mcp-server.js <command>`: the same bridge without an assistant, for scripts and git hooks.
// It finds the window the way the server does (windowLocator.ts) and says which one, and why.
// Exit codes: 0 done, 1 failed, 2 usage (a bad argument, a missing file), 3 no window, 4 refused.
// Every message it writes (not the data: a review's markdown, an export) has its control characters
// taken out, since a message may quote a file, a log or a review, and a terminal obeys what it prints.

import { silentLogger } from '../../shared/logger';
import { withoutControls } from '../../shared/plainText';
import { ErrorCode, IPC_PATH_ENV, IPC_TOKEN_ENV, IpcError, TIMEOUT_ENV, type ReviewMode } from '../../shared/protocol';
import { REDLINE_VERSION } from '../../shared/version';
import { exportReview, presentSarif } from './exchangeCommands';
import { IpcClient } from './ipcClient';
import { ReviewInputError, readReviewInput } from './reviewInput';
import { TIMEOUT_ARG, parseTimeouts } from './toolTimeouts';
import { readWholeReview } from './wholeReview';
import { UsageError } from './usageError';
import { WindowLocator, workspaceChoice } from './windowLocator';

export { UsageError };

export const USAGE = `Usage: node mcp-server.js <command> [options]

Commands:
  present FILE.md | -     Show the markdown file (or standard input) in the window's Redline panel
      --mode MODE           replace (default), append or update-section
      --section HEADING     the section to replace, with --mode update-section
      --title TITLE         the review's title
  present --sarif FILE    Open a SARIF 2.1.0 log (ESLint, CodeQL, Semgrep, a Redline export) as a
                          review, with each finding's state and replies when Redline wrote it
  get-review [--json]     Print the current review's markdown (or all of it as JSON)
  export --format FORMAT  Write the current review as sarif, rdjsonl (reviewdog) or markdown,
      --output FILE         to FILE (replaced whole, never half-written) instead of standard output
  status                  Say which VS Code window this would reach, and why
  --help                  Print this text

Every command takes --workspace FOLDER (or REDLINE_WORKSPACE) to choose the window by folder;
otherwise it is the window of this terminal, or the one whose folder holds the current directory.
--timeout MS (or REDLINE_TIMEOUT_MS) sets how long to wait for VS Code, e.g. present-review=120000.
With no command, it is Redline's MCP server on stdin and stdout.

Exit codes: 0 done, 1 failed, 2 usage, 3 no window, 4 refused.
`;

export const Exit = { ok: 0, failed: 1, usage: 2, noWindow: 3, refused: 4 } as const;

export interface CliIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Read only by `present -`, and never past the review limit. */
  readonly stdin: NodeJS.ReadableStream;
}

type Parsed = { command: string; positional: string[]; options: Map<string, string | true> };
/** The command line's io, with `data` for what a command outputs as is (stdout, unchanged). */
type DataIo = CliIo & { readonly data: (text: string) => void };

const VALUED = new Set([
  '--mode',
  '--section',
  '--title',
  '--workspace',
  '--sarif',
  '--format',
  '--output',
  TIMEOUT_ARG,
]);

export function parseArgs(argv: readonly string[]): Parsed {
  const [command = '', ...rest] = argv;
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (VALUED.has(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value.`);
      options.set(name, value);
    } else if (name === '--json') {
      options.set(name, true);
    } else if (name.startsWith('--')) {
      throw new UsageError(`Unknown option ${name}.`);
    } else {
      positional.push(arg);
    }
  }
  return { command, positional, options };
}

export async function runCli(given: CliIo): Promise<number> {
  // Messages only: get-review and export write their data through `data`.
  const io: CliIo & { readonly data: (text: string) => void } = {
    ...given,
    stdout: (text) => given.stdout(withoutControls(text)),
    stderr: (text) => given.stderr(withoutControls(text)),
    data: given.stdout,
  };
  let parsed: Parsed;
  try {
    parsed = parseArgs(io.argv);
    if (['--help', '-h', 'help'].includes(parsed.command)) {
      io.stdout(USAGE);
      return Exit.ok;
    }
    if (!['present', 'get-review', 'export', 'status'].includes(parsed.command))
      throw new UsageError(`Unknown command "${parsed.command}".`);
  } catch (error) {
    return usage(io, error);
  }
  const workspace = parsed.options.get('--workspace');
  const locator = new WindowLocator({
    envPath: io.env[IPC_PATH_ENV] || undefined,
    envToken: io.env[IPC_TOKEN_ENV] || undefined,
    workspace: typeof workspace === 'string' ? { folder: workspace, from: '--workspace' } : workspaceChoice([], io.env),
    cwd: io.cwd,
  });
  // As the server reads them; a setting it cannot use is said, and the call goes on without it.
  const { timeouts, problems } = parseTimeouts(io.env[TIMEOUT_ENV] || undefined, io.argv);
  for (const problem of problems) io.stderr(`redline: ${problem}\n`);
  const client = new IpcClient({
    locate: (dead) => locator.candidates(dead),
    timeouts,
    clientInfo: { name: 'redline-cli', version: REDLINE_VERSION },
    retryDelaysMs: [],
    // The command's output is what it says; failures are its message on stderr.
    log: silentLogger,
  });
  try {
    if (parsed.command === 'present') return await present(parsed, io, client);
    if (parsed.command === 'get-review') return await getReview(parsed, io, client);
    if (parsed.command === 'export') return await exportCommand(parsed, io, client);
    return await status(io, client);
  } catch (error) {
    if (error instanceof UsageError) return usage(io, error);
    // The command was right; the input was not. The message says what to do, the usage would not.
    if (error instanceof ReviewInputError) {
      io.stderr(`redline: ${error.message}\n`);
      return Exit.usage;
    }
    io.stderr(`redline: ${(error as Error)?.message ?? String(error)}\n`);
    return exitFor(error);
  } finally {
    await client.dispose();
  }
}

async function present(parsed: Parsed, io: CliIo, client: IpcClient): Promise<number> {
  const sarif = parsed.options.get('--sarif');
  if (typeof sarif === 'string') {
    if (parsed.positional.length > 0 || ['--mode', '--section', '--title'].some((name) => parsed.options.has(name))) {
      throw new UsageError(
        'present --sarif takes the log alone: its review replaces the "SARIF import" tab, with the log\'s own title.',
      );
    }
    await presentSarif(sarif, io, (method, params) => client.request(method, params));
    return Exit.ok;
  }
  if (parsed.positional.length !== 1) throw new UsageError('present takes one file, or - for standard input.');
  const [file] = parsed.positional;
  const content = await readReviewInput(file, io.stdin);
  const mode = (parsed.options.get('--mode') ?? 'replace') as string;
  if (!['replace', 'append', 'update-section'].includes(mode))
    throw new UsageError(`--mode must be replace, append or update-section, not "${mode}".`);
  const section = parsed.options.get('--section');
  const title = parsed.options.get('--title');
  const result = await client.request('present-review', {
    content,
    mode: mode as ReviewMode,
    ...(typeof section === 'string' ? { section } : {}),
    ...(typeof title === 'string' ? { title } : {}),
    cwd: io.cwd,
  });
  const broken = result.references.broken.length;
  io.stdout(
    `Presented revision ${result.revision}: ${result.references.resolved} of ${result.references.total} references resolved${broken > 0 ? `, ${broken} broken` : ''}.\n`,
  );
  for (const reference of result.references.broken)
    io.stdout(`  broken: ${reference.reference} at line ${reference.line} (${reference.reason})\n`);
  return Exit.ok;
}

async function getReview(parsed: Parsed, io: DataIo, client: IpcClient): Promise<number> {
  if (parsed.positional.length > 0) throw new UsageError('get-review takes no file.');
  const review = await readWholeReview((params) => client.request('get-review', params));
  io.data(
    parsed.options.has('--json')
      ? `${JSON.stringify(review, null, 2)}\n`
      : review.markdown.endsWith('\n') || review.markdown === ''
        ? review.markdown
        : `${review.markdown}\n`,
  );
  return Exit.ok;
}

async function exportCommand(parsed: Parsed, io: DataIo, client: IpcClient): Promise<number> {
  if (parsed.positional.length > 0) throw new UsageError('export takes no file; name where to write with --output.');
  const format = parsed.options.get('--format');
  const output = parsed.options.get('--output');
  await exportReview(
    {
      format: typeof format === 'string' ? format : undefined,
      output: typeof output === 'string' ? output : undefined,
    },
    { cwd: io.cwd, stdout: io.data, stderr: io.stderr },
    (method, params) => client.request(method, params),
  );
  return Exit.ok;
}

/** Where it connected, and why. */
async function status(io: CliIo, client: IpcClient): Promise<number> {
  const { folders } = await client.request('get-workspace-folders', {});
  io.stdout(
    `Reaches ${String(client.reachedWindow)}\n  socket: ${String(client.reachedSocketPath)}\n  folders: ${folders.map((folder) => folder.path).join(', ') || '(none)'}\n`,
  );
  return Exit.ok;
}

function usage(io: CliIo, error: unknown): number {
  io.stderr(`redline: ${(error as Error).message}\n\n${USAGE}`);
  return Exit.usage;
}

function exitFor(error: unknown): number {
  if (!(error instanceof IpcError)) return Exit.failed;
  if (error.code === ErrorCode.NotConfigured || error.code === ErrorCode.Unreachable) return Exit.noWindow;
  if (error.code === ErrorCode.Refused || error.code === ErrorCode.Unauthorized) return Exit.refused;
  return Exit.failed;
}
