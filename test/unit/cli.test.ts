import { Exit, parseArgs, runCli, USAGE, type CliIo } from '../../mcp-server/src/cli';
import { isCliInvocation } from '../../mcp-server/src/cliCommand';
import { Readable } from 'stream';
import { NO_DISCOVERY_ENV } from '../support/discoveryEnv';

function io(
  argv: string[],
  stdin: string | Buffer = '# from stdin',
): CliIo & { out: string; err: string; env: Record<string, string> } {
  const captured = { out: '', err: '' };
  return Object.assign(captured, {
    argv,
    env: { ...NO_DISCOVERY_ENV },
    cwd: '/nonexistent/project',
    stdout: (text: string) => (captured.out += text),
    stderr: (text: string) => (captured.err += text),
    stdin: Readable.from([Buffer.from(stdin)]),
  });
}

describe('the command line', () => {
  it('is what the entry runs only when the first argument is a command', () => {
    expect(isCliInvocation(['present', 'x.md'])).toBe(true);
    expect(isCliInvocation(['--help'])).toBe(true);
    expect(isCliInvocation([])).toBe(false);
    expect(isCliInvocation(['--workspace', '/a'])).toBe(false);
  });

  it('reads options with and without "=", and refuses unknown ones and missing values', () => {
    const parsed = parseArgs(['present', 'r.md', '--mode=append', '--title', 'T', '--workspace', '/w']);
    expect(parsed.command).toBe('present');
    expect(parsed.positional).toEqual(['r.md']);
    expect(Object.fromEntries(parsed.options)).toEqual({ '--mode': 'append', '--title': 'T', '--workspace': '/w' });
    expect(() => parseArgs(['present', 'r.md', '--colour'])).toThrow('Unknown option --colour.');
    expect(() => parseArgs(['present', 'r.md', '--title'])).toThrow('--title needs a value.');
  });

  it('prints its usage for --help, and exits 2 with the usage for a mistake', async () => {
    const help = io(['--help']);
    expect(await runCli(help)).toBe(Exit.ok);
    expect(help.out).toBe(USAGE);
    for (const argv of [
      ['frobnicate'],
      ['present'],
      ['present', 'a.md', 'b.md'],
      ['present', '-', '--mode', 'sideways'],
    ]) {
      const run = io(argv);
      expect(await runCli(run)).toBe(Exit.usage);
      expect(run.err).toMatch(/^redline: .+\n\nUsage:/);
    }
  });

  it('takes --timeout as the server does, and names a setting it cannot use before going on', async () => {
    expect(Object.fromEntries(parseArgs(['get-review', '--timeout', 'get-review=5000']).options)).toEqual({
      '--timeout': 'get-review=5000',
    });
    const run = io(['status', '--timeout', 'frobnicate=5']);
    run.env.REDLINE_TIMEOUT_MS = 'soon';
    expect(await runCli(run)).toBe(Exit.noWindow);
    expect(run.err).toContain(
      'redline: "soon" in REDLINE_TIMEOUT_MS is ignored: "soon" is not a whole number of milliseconds above 0.\n',
    );
    expect(run.err).toContain('redline: "frobnicate=5" in --timeout names no tool');
    expect(run.err).toMatch(/No VS Code window/);
  });

  it('exits 3 and says so when no window is open', async () => {
    const run = io(['present', '-']);
    expect(await runCli(run)).toBe(Exit.noWindow);
    expect(run.err).toMatch(/^redline: No VS Code window/);
    const status = io(['status']);
    expect(await runCli(status)).toBe(Exit.noWindow);
  });

  it('refuses empty, binary and undecodable input with exit 2 before it looks for a window', async () => {
    const cases: Array<[string | Buffer, RegExp]> = [
      ['', /^redline: standard input is empty: there is no review to present.\n$/],
      [
        ' \n\t\n',
        /^redline: standard input holds only whitespace: there is no review to present, and the one shown is left as it is.\n$/,
      ],
      [Buffer.from([0xef, 0xbb, 0xbf]), /^redline: standard input holds only whitespace/],
      [Buffer.from([0xef, 0xbb, 0xbf, 0x20, 0x0a, 0x0a]), /^redline: standard input holds only whitespace/],
      [Buffer.from('# review\0more'), /NUL byte at offset 8/],
      [Buffer.from([0x23, 0x20, 0xff, 0xfe]), /not valid UTF-8/],
    ];
    for (const [input, message] of cases) {
      const run = io(['present', '-'], input);
      expect(await runCli(run)).toBe(Exit.usage);
      expect(run.err).toMatch(message);
      expect(run.err).not.toMatch(/No VS Code window/);
    }
    const missing = io(['present', '/nonexistent/r.md']);
    expect(await runCli(missing)).toBe(Exit.usage);
    expect(missing.err).toBe('redline: Cannot read /nonexistent/r.md: no such file.\n');
  });
});
