// "Open SARIF as Review…" as the window runs it (the real command, with a stand-in for `vscode`
// whose file system is the real one), against the harness's window and the built import worker:
// a log that is a link to /dev/zero or a FIFO is refused at once, saying what it is; the worst logs
// at the size limit hold this thread (the extension host's) for no more than a frame, because only
// the finished review comes back to it; and a located file maps the rest of a log, remembered.

import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MAX_SARIF_FILE_BYTES, SARIF_IMPORT_ASSISTANT } from '../../shared/exchange/importRequest';
import { windowRequest } from '../../extension/src/bridge/windowRequests';
import { monitorThreadHolds } from '../support/threadHolds';
import { until } from '../support/until';
import { assertBuilt, startHost, type Host } from '../integration/harness';

/** What the stand-in's editor showed the user, and what the user answers. */
const shown = {
  errors: [] as string[],
  infos: [] as string[],
  warnings: [] as Array<{ message: string; items: string[] }>,
  /** The button pressed on a warning with buttons; the file chosen in an open dialog. */
  press: undefined as string | undefined,
  choose: undefined as string | undefined,
  folder: '',
};

const uriOf = (fsPath: string) => ({ fsPath, scheme: 'file', path: fsPath, toString: () => `file://${fsPath}` });

jest.mock(
  'vscode',
  () => ({
    Uri: { file: (fsPath: string) => uriOf(fsPath) },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    workspace: {
      get workspaceFolders() {
        return [{ uri: uriOf(shown.folder), name: 'acme', index: 0 }];
      },
      getWorkspaceFolder: () => ({ uri: uriOf(shown.folder), name: 'acme', index: 0 }),
      // The editor's file system, as VS Code's is for a local file: what an earlier command read through.
      fs: {
        stat: async (uri: { fsPath: string }) => {
          const stat = await fs.promises.stat(uri.fsPath);
          return { type: stat.isFile() ? 1 : stat.isDirectory() ? 2 : 0, size: stat.size, ctime: 0, mtime: 0 };
        },
        readFile: (uri: { fsPath: string }) => fs.promises.readFile(uri.fsPath),
      },
    },
    window: {
      showErrorMessage: async (message: string) => void shown.errors.push(message),
      showInformationMessage: async (message: string) => void shown.infos.push(message),
      showWarningMessage: async (message: string, ...items: string[]) => {
        shown.warnings.push({ message, items });
        return items.includes(shown.press ?? '') ? shown.press : undefined;
      },
      showOpenDialog: async () => (shown.choose === undefined ? undefined : [uriOf(shown.choose)]),
    },
  }),
  { virtual: true },
);

// After the mock: the command imports `vscode`.
import { locateAndImport, openSarifAsReview, type SarifImportDeps } from '../../extension/src/exchange/importCommand';
import { LocatedPrefixes } from '../../extension/src/exchange/locatedPrefixes';
import { SarifImportRunner } from '../../extension/src/exchange/sarifImportRunner';

const WORKER = path.resolve(__dirname, '../../dist/sarifImportWorker.js');
const FOREIGN = path.join(__dirname, '../fixtures/exchange/foreign');

describe('Open SARIF as Review…, against logs made to hurt', () => {
  let host: Host;
  let dir: string;
  let runner: SarifImportRunner;
  const state = new Map<string, unknown>();
  let deps: SarifImportDeps;

  beforeAll(async () => {
    assertBuilt();
    if (!fs.existsSync(WORKER)) throw new Error(`${WORKER} is missing: run "npm run build" first.`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-import-cmd-'));
    const workspace = path.join(dir, 'acme');
    fs.cpSync(path.join(FOREIGN, 'project'), workspace, { recursive: true });
    shown.folder = fs.realpathSync(workspace);
    host = await startHost({ workspace: shown.folder });
    // A worker ends a moment after its import, not the window's 20 s: the tests wait for it to end.
    runner = new SarifImportRunner(WORKER, { idleMs: 2000 });
    deps = {
      importReview: windowRequest(host.handlers, 'import-review'),
      runImport: (job) => runner.run(job),
      located: new LocatedPrefixes({
        get: (key) => state.get(key),
        update: async (key, value) => void state.set(key, value),
      }),
    };
  });
  afterAll(async () => {
    await runner?.dispose();
    await host?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    shown.errors = [];
    shown.infos = [];
    shown.warnings = [];
    shown.press = undefined;
    shown.choose = undefined;
  });

  const imported = () => host.reviews.existing(SARIF_IMPORT_ASSISTANT)?.store.current;

  it('a log that is a link to /dev/zero is refused at once, saying it is a device', async () => {
    const log = path.join(dir, 'results.sarif');
    fs.symlinkSync('/dev/zero', log);
    expect(await openSarifAsReview(deps, uriOf(log) as never)).toBeUndefined();
    expect(shown.errors).toEqual([
      'Redline: results.sarif is a device, not a regular file, so it is not read. Open the SARIF file itself.',
    ]);
  });

  it('a log that is a FIFO no one writes is refused at once, saying it is one', async () => {
    const log = path.join(dir, 'pipe.sarif');
    execFileSync('mkfifo', [log]);
    expect(await openSarifAsReview(deps, uriOf(log) as never)).toBeUndefined();
    expect(shown.errors).toEqual([
      'Redline: pipe.sarif is a FIFO (a named pipe), not a regular file, so it is not read. Open the SARIF file itself.',
    ]);
  });

  it('the worst logs at the size limit hold the window’s thread under 50 ms: the host only receives the finished review', async () => {
    // As in a window that has shown a review: the renderer's code on this thread has run once.
    await openSarifAsReview(deps, uriOf(path.join(FOREIGN, 'logs/codeql.sarif')) as never);
    await until(() => !runner.hasWorker, 'the import worker to end once idle');
    shown.infos = [];
    const logs: Record<string, string> = { zeros: worstLog(), placeholders: placeholderLog() };
    const holds = monitorThreadHolds();
    const stalls: Record<string, number> = {};
    for (const [name, text] of Object.entries(logs)) {
      const file = path.join(dir, `${name}.sarif`);
      fs.writeFileSync(file, text);
      expect(fs.statSync(file).size).toBeGreaterThan(MAX_SARIF_FILE_BYTES - 1024 * 1024);
      expect(fs.statSync(file).size).toBeLessThanOrEqual(MAX_SARIF_FILE_BYTES);
      holds.reset();
      holds.enable();
      await openSarifAsReview(deps, uriOf(file) as never);
      // Until the worker has ended too: giving back its memory is part of the import.
      await until(() => !runner.hasWorker, 'the import worker to end once idle');
      holds.disable();
      stalls[name] = holds.maxMs;
    }
    console.log(
      `40 MiB imports: the host's longest stall was ${stalls.zeros.toFixed(0)} ms (results of zeros), ${stalls.placeholders.toFixed(0)} ms (placeholders)`,
    );
    // The log of zeros opens as a review that says what was not read; the placeholders' is refused for its size.
    expect(shown.infos).toEqual([expect.stringContaining('zeros.sarif opened as revision')]);
    expect(imported()?.markdown).toContain('more results were not read');
    expect(shown.errors).toEqual([expect.stringContaining('would be more than 10.0 MiB')]);
    expect(stalls.zeros).toBeLessThan(50);
    expect(stalls.placeholders).toBeLessThan(50);
  });

  it('a file the user locates maps the rest of the log, and later logs from that machine, remembered', async () => {
    const log = path.join(dir, 'lint.sarif');
    fs.writeFileSync(
      log,
      logOf([
        ['file:///Users/ci/app/lib/index.ts', 3],
        ['file:///Users/ci/app/lib/index.ts', 5],
      ]),
    );
    // Two files of the workspace end in lib/index.ts: none is guessed, and the user is offered to locate it.
    expect(await openSarifAsReview(deps, uriOf(log) as never)).toMatchObject({ findings: 0 });
    expect(shown.warnings).toEqual([
      {
        message: expect.stringContaining(
          '2 results name files not found in the workspace (such as /Users/ci/app/lib/index.ts)',
        ),
        items: ['Locate index.ts…'],
      },
    ]);
    const located = path.join(shown.folder, 'test/fixtures/lib/index.ts');
    const result = await locateAndImport(deps, uriOf(log) as never, {
      logPath: '/Users/ci/app/lib/index.ts',
      chosen: uriOf(located) as never,
    });
    expect(result).toMatchObject({ findings: 2 });
    expect(state.get('redline.sarifLocatedPrefixes')).toEqual([
      { from: '/Users/ci/app/', to: `${path.join(shown.folder, 'test/fixtures')}/` },
    ]);
    expect(imported()?.markdown).toContain('found through the folder you located');

    // Another log from that machine: its paths under the prefix are found at once.
    const next = path.join(dir, 'next.sarif');
    fs.writeFileSync(next, logOf([['file:///Users/ci/app/lib/index.ts', 7]]));
    expect(await openSarifAsReview(deps, uriOf(next) as never)).toMatchObject({ findings: 1 });
    expect(shown.infos.at(-1)).toContain('next.sarif opened as revision');
  });

  it('a located file of another name is refused, and nothing is remembered', async () => {
    const before = state.get('redline.sarifLocatedPrefixes');
    const log = path.join(dir, 'lint.sarif');
    const result = await locateAndImport(deps, uriOf(log) as never, {
      logPath: '/Users/ci/app/lib/index.ts',
      chosen: uriOf(path.join(shown.folder, 'src/app.js')) as never,
    });
    expect(result).toBeUndefined();
    expect(shown.errors).toEqual([expect.stringContaining('app.js is not the file the log names')]);
    expect(state.get('redline.sarifLocatedPrefixes')).toEqual(before);
  });
});

function logOf(places: Array<[string, number]>): string {
  const results = places.map(([uri, line]) => ({
    ruleId: 'no-unused-vars',
    level: 'warning',
    message: { text: `unused at ${line}` },
    locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
  }));
  return JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'ESLint' } }, results }] });
}

/** A log at the size limit whose results are all `0`: every one fails the result check. */
function worstLog(): string {
  const head = '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Worst"}},"results":[';
  const tail = ']}]}';
  const count = Math.floor((MAX_SARIF_FILE_BYTES - head.length - tail.length - 64) / 2);
  return `${head}0${',0'.repeat(count - 1)}${tail}`;
}

/** A log at the size limit of results whose messages are `{0}` repeated, with a 2 KB argument. */
function placeholderLog(): string {
  const results: string[] = [];
  const argument = 'x'.repeat(2048);
  const result = `{"ruleId":"r","message":{"text":"${'{0}'.repeat(13_000)}","arguments":["${argument}"]},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"src/app.js"},"region":{"startLine":1}}}]}`;
  const head = '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Placeholders"}},"results":[';
  let size = head.length + 8;
  while (size + result.length + 1 < MAX_SARIF_FILE_BYTES) {
    results.push(result);
    size += result.length + 1;
  }
  return `${head}${results.join(',')}]}]}`;
}
