// `node test/e2e/runDesktop.mjs`: the extension-host suite (test/e2e/suite/) in a desktop VS Code
// through @vscode/test-electron, for machines that have one. The packaged extension is tested:
// the .vsix is unpacked and its folder is the extension under development.
//   VSCODE_EXECUTABLE=/path/to/code   use this VS Code instead of downloading one
//   VSCODE_VERSION=1.101.0            the version to download (default: stable)
//   REDLINE_E2E_GREP=<text>           run only the tests whose title contains it
// Code-server runs the same suite offline: node test/e2e/run.mjs --suite extension-host
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from './harness/install.mjs';
import { makeTempDir, removeTempDir } from './harness/processes.mjs';
import { FIXTURE_WORKSPACE, extractVsix, findVsix } from './packaged.mjs';

async function main() {
  const started = Date.now();
  const work = makeTempDir('redline-e2e-desktop-');
  try {
    const vsix = findVsix();
    const extensionDevelopmentPath = extractVsix(vsix.path, join(work, 'vsix'));
    const workspace = join(work, 'workspace');
    cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
    const executable = process.env.VSCODE_EXECUTABLE || undefined;
    process.stdout.write(
      `testing ${vsix.path.slice(REPO_ROOT.length + 1)} in ${executable ?? `a downloaded VS Code ${process.env.VSCODE_VERSION ?? 'stable'}`}\n`,
    );
    await runTests({
      vscodeExecutablePath: executable,
      version: process.env.VSCODE_VERSION || undefined,
      extensionDevelopmentPath,
      extensionTestsPath: join(REPO_ROOT, 'test', 'e2e', 'suite', 'index.js'),
      launchArgs: [
        workspace,
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        // Only the extension under development (and the built-in ones) runs.
        '--disable-extensions',
      ],
      extensionTestsEnv: process.env.REDLINE_E2E_GREP ? { REDLINE_E2E_GREP: process.env.REDLINE_E2E_GREP } : undefined,
    });
    process.stdout.write(`desktop extension-host suite passed (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  } finally {
    removeTempDir(work);
  }
}

main().catch((error) => {
  process.stderr.write(
    `desktop extension-host suite failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (!process.env.VSCODE_EXECUTABLE) {
    process.stderr.write(
      'Without VSCODE_EXECUTABLE, @vscode/test-electron downloads VS Code; offline, run: node test/e2e/run.mjs --suite extension-host\n',
    );
  }
  process.exitCode = 1;
});
