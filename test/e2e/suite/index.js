// Entry of the extension-host suite (extensionTestsPath): runs the *.test.js files beside it with
// mocha inside the real extension host. Used by test/e2e/run.mjs (code-server) and by
// test/e2e/runDesktop.mjs (@vscode/test-electron).
const fs = require('node:fs');
const path = require('node:path');
const { repoRequire } = require('./helpers');
const { TEST_DEADLINE_MS } = require('../../support/deadlines.cjs');

const FIRST = 'redline.test.js';

function run() {
  // mocha is an ES module; the extension host's Node loads it with require(esm).
  const mochaModule = repoRequire('mocha');
  const Mocha = mochaModule.default ?? mochaModule;
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: TEST_DEADLINE_MS });
  const grep = process.env.REDLINE_E2E_GREP;
  if (grep) mocha.grep(grep);
  // redline.test.js first: it starts from a fresh window (no panel open yet); the rest in name order.
  const files = fs.readdirSync(__dirname).filter((name) => name.endsWith('.test.js'));
  const ordered = [...files.filter((name) => name === FIRST), ...files.filter((name) => name !== FIRST).sort()];
  for (const file of ordered) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // One line for the runner to count from, whatever the reporter printed.
      console.log(`redline-e2e-result ${JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: failures })}`);
      if (failures > 0) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
  });
}

module.exports = { run };
