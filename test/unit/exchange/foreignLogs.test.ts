// Logs other tools write, from other machines, opened over a workspace that is another checkout of
// the same code (test/fixtures/exchange/foreign/project): each path style finds its file, and the
// review says how. The logs are written for these tests in each tool's shape (README beside them);
// ESLint's is written by ESLint itself in the test, over this machine's files, then moved to another
// machine's folder as a CI runner's log would name them.

import { execFile } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { pathToFileURL } from 'url';
import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
import { importSarif, type ImportedReview } from '../../../shared/exchange/sarifImport';
import type { FileReference } from '../../../shared/links';
import { FIXTURES } from './draft04';

const FOREIGN = join(FIXTURES, 'foreign');
const PROJECT = join(FOREIGN, 'project');
const workspace = { roots: [PROJECT], cwd: PROJECT };

const log = (name: string) => readFileSync(join(FOREIGN, 'logs', name), 'utf8');
const open = (name: string, text = log(name)) => importSarif(text, { name, workspace });

/** The project's files, as the window's renderer would find them from the project's folder. */
const project: Resolver = {
  resolve: (ref: FileReference) => {
    const file = ref.path.startsWith('/') ? ref.path : join(PROJECT, ref.path);
    return existsSync(file)
      ? { status: 'resolved', absolutePath: file, lineCount: readFileSync(file, 'utf8').split('\n').length - 1 }
      : { status: 'broken', reason: 'no such file' };
  },
};

/** Each finding's file, lines and how its place was found; and that the renderer makes a finding of each at that file. */
async function places(imported: ImportedReview) {
  const rendered = await renderReview(imported.markdown, project);
  expect(rendered.findings.map((finding) => finding.file)).toEqual(
    imported.findings.map((finding) => join(PROJECT, finding.file)),
  );
  return imported.findings.map((finding) => ({
    file: finding.file,
    line: finding.line,
    endLine: finding.endLine,
    fileLevel: finding.fileLevel,
    how: imported.log.results[finding.result].place,
  }));
}

describe('a log from another machine, opened over another checkout', () => {
  it('PMD on Windows (absolute file:/// paths, no roots): found by the end of its path, and the item says so', async () => {
    const imported = await open('pmd.sarif');
    expect(await places(imported)).toEqual([
      { file: 'src/main/java/com/acme/App.java', line: 4, endLine: 4, fileLevel: false, how: 'suffix' },
    ]);
    expect(imported.markdown).toContain(
      '_Place: the log names “C:/Users/dev/IdeaProjects/acme/src/main/java/com/acme/App.java”; this is the one file in the workspace whose path ends in “src/main/java/com/acme/App.java”._',
    );
    expect(imported.markdown).toContain(
      "> How the results' places were found: 1 by the end of their path, which only one file in the workspace has.",
    );
  });

  it('Trivy (an absolute file:/// path on a CI runner): found by the end of its path', async () => {
    expect(await places(await open('trivy.sarif'))).toEqual([
      { file: 'package-lock.json', line: 1, endLine: 1, fileLevel: false, how: 'suffix' },
    ]);
  });

  it('CodeQL (relative to %SRCROOT%, which originalUriBaseIds puts on the runner): at its file, through the log’s root', async () => {
    const imported = await open('codeql.sarif');
    expect(await places(imported)).toEqual([
      { file: 'server/routes/search.js', line: 14, endLine: 14, fileLevel: false, how: 'log-root' },
      { file: 'server/db.js', line: 22, endLine: 23, fileLevel: false, how: 'log-root' },
    ]);
    expect(imported.markdown).not.toContain('_Place');
  });

  it('detekt (absolute paths under the folder it ran in, invocations[].workingDirectory): relative to that folder', async () => {
    expect(await places(await open('detekt.sarif'))).toEqual([
      { file: 'src/main/kotlin/com/acme/Service.kt', line: 17, endLine: 17, fileLevel: false, how: 'log-root' },
    ]);
  });

  it('Semgrep’s supply-chain result (startLine 0) is a finding on the whole file, with no note against it', async () => {
    const imported = await open('semgrep.sarif');
    expect(await places(imported)).toEqual([
      { file: 'scripts/deploy.py', line: 9, endLine: 9, fileLevel: false, how: 'log-root' },
      { file: 'requirements.txt', line: 1, endLine: 1, fileLevel: true, how: 'log-root' },
    ]);
    expect(imported.markdown).toContain('- **risk**: `requirements.txt` requests@2.19.0 is vulnerable');
    expect(imported.markdown).not.toMatch(/not valid|no results/);
  });

  it('ShellCheck on a root file without an extension (`gradlew`): a finding, written as ./gradlew', async () => {
    const imported = await open('shellcheck.sarif');
    expect(await places(imported)).toEqual([
      { file: 'gradlew', line: 30, endLine: 30, fileLevel: false, how: 'as-written' },
      { file: 'gradlew', line: 33, endLine: 33, fileLevel: false, how: 'as-written' },
    ]);
    expect(imported.markdown).toContain('- **suggestion**: `./gradlew:30` Double quote');
  });

  it('ESLint, as its SARIF formatter writes it, moved to another machine: every result found by the end of its path', async () => {
    const here = await eslintLog(join(FIXTURES, 'eslint-project'));
    const elsewhere = here
      .split(pathToFileURL(join(FIXTURES, 'eslint-project')).href)
      .join('file:///Users/ci/work/app');
    expect(elsewhere).not.toBe(here);
    const imported = await importSarif(elsewhere, {
      name: 'eslint.sarif',
      workspace: { roots: [join(FIXTURES, 'eslint-project')], cwd: join(FIXTURES, 'eslint-project') },
    });
    expect(imported.findings.length).toBeGreaterThan(3);
    expect(imported.findings.every((finding) => imported.log.results[finding.result].place === 'suffix')).toBe(true);
    expect(imported.findings.every((finding) => existsSync(join(FIXTURES, 'eslint-project', finding.file)))).toBe(true);
  });
});

describe('paths the workspace cannot tell apart', () => {
  const result = (uri: string, line: number) => ({
    ruleId: 'r',
    message: { text: `at ${line}` },
    locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
  });
  const logOf = (results: unknown[]) =>
    JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Linter' } }, results }] });

  it('a path whose end names two files is found under the folder another result of the log leads to', async () => {
    const imported = await importSarif(
      logOf([result('file:///Users/ci/app/lib/index.ts', 3), result('file:///Users/ci/app/src/app.js', 10)]),
      { name: 'lint.sarif', workspace },
    );
    expect(await places(imported)).toEqual([
      { file: 'lib/index.ts', line: 3, endLine: 3, fileLevel: false, how: 'same-prefix' },
      { file: 'src/app.js', line: 10, endLine: 10, fileLevel: false, how: 'suffix' },
    ]);
    expect(imported.markdown).toContain(
      `found under the folder the log's other paths lead to (“/Users/ci/app/” is “${PROJECT}/” here)`,
    );
  });

  it('alone, it is not guessed: the item says how many files end so, and the summary names it', async () => {
    const imported = await importSarif(logOf([result('file:///Users/ci/app/lib/index.ts', 3)]), {
      name: 'lint.sarif',
      workspace,
    });
    expect(imported.findings).toEqual([]);
    expect(imported.summary.notFound).toEqual(['/Users/ci/app/lib/index.ts']);
    expect(imported.markdown).toContain('- **risk**: /Users/ci/app/lib/index.ts (line 3) at 3');
    expect(imported.markdown).toContain('2 files in the workspace end in “lib/index.ts”, so none was chosen.');
  });

  it('a prefix the user located maps every path under it, before any guess', async () => {
    const imported = await importSarif(logOf([result('file:///Users/ci/app/lib/index.ts', 3)]), {
      name: 'lint.sarif',
      workspace: { ...workspace, located: [{ from: '/Users/ci/app/', to: `${PROJECT}/test/fixtures/` }] },
    });
    expect(await places(imported)).toEqual([
      { file: 'test/fixtures/lib/index.ts', line: 3, endLine: 3, fileLevel: false, how: 'located' },
    ]);
    expect(imported.markdown).toContain('found through the folder you located');
  });
});

/** ESLint's SARIF log over `project`, as its formatter writes it. */
function eslintLog(project: string): Promise<string> {
  const eslint = join(__dirname, '../../../node_modules/eslint/bin/eslint.js');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [eslint, '--format', '@microsoft/eslint-formatter-sarif', 'src'],
      { cwd: project, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => (error && error.code !== 1 ? reject(new Error(stderr)) : resolve(stdout)),
    );
  });
}
