// The import of a SARIF log that a real tool wrote in the test: ESLint with Microsoft's SARIF
// formatter, over the fixture project. What each result should become is read from ESLint's own
// results, not written down here.

import { execFile } from 'child_process';
import type { ESLint } from 'eslint';
import { existsSync } from 'fs';
import { join } from 'path';
import { renderReview, type Resolver } from '../../../extension/src/render/markdownRenderer';
import { findingFingerprint } from '../../../shared/exchange/exportedReview';
import { fromSarif } from '../../../shared/exchange/sarifImport';
import type { FileReference } from '../../../shared/links';
import { FIXTURES } from './draft04';

const PROJECT = join(FIXTURES, 'eslint-project');

/** Files as they are on disk: ESLint's log names them by absolute file: URI. */
const disk: Resolver = {
  resolve: (ref: FileReference) =>
    existsSync(ref.path)
      ? { status: 'resolved', absolutePath: ref.path, lineCount: 1000 }
      : { status: 'broken', reason: 'no such file' },
};

const ESLINT = join(__dirname, '../../../node_modules/eslint/bin/eslint.js');

/** ESLint's command line over the fixture project (a child process: ESLint loads its config with import()). */
function eslint(format: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [ESLINT, '--format', format, 'src'],
      { cwd: PROJECT, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // Exit code 1 means lint errors were found, which the fixture has on purpose.
        if (error && error.code !== 1) reject(new Error(`eslint failed: ${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

async function lintToSarif(): Promise<{ log: string; results: ESLint.LintResult[] }> {
  const [log, json] = await Promise.all([eslint('@microsoft/eslint-formatter-sarif'), eslint('json')]);
  return { log, results: JSON.parse(json) as ESLint.LintResult[] };
}

describe('a SARIF log written by ESLint', () => {
  it('opens as a review with a finding per problem, at its file and lines, labelled by its level, grouped by rule', async () => {
    const { log, results } = await lintToSarif();
    const expected = results
      .flatMap((result) =>
        [...result.messages, ...(result.suppressedMessages ?? [])].map((message) => ({
          result,
          message,
          suppressed: 'suppressions' in message,
        })),
      )
      .map(({ result, message, suppressed }) => ({
        file: result.filePath,
        line: message.line,
        endLine: Math.max(message.line, message.endLine ?? message.line),
        state: suppressed ? 'wont-fix' : 'open',
        severity: message.severity === 2 ? 'bug' : 'risk',
        rule: message.ruleId,
        text: message.message,
      }));
    expect(expected.length).toBeGreaterThanOrEqual(5);

    const imported = fromSarif(log);
    expect(imported.title).toBe('ESLint: SARIF results');
    const found = (await renderReview(imported.markdown, disk)).findings;
    const sortKey = (finding: { file: string; line: number; severity?: unknown }) =>
      `${finding.file}:${String(finding.line).padStart(6, '0')}:${String(finding.severity)}`;
    const byPlace = <T extends { file: string; line: number }>(list: T[]) =>
      [...list].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));

    expect(
      byPlace(imported.findings).map(({ file, line, endLine, state }) => ({ file, line, endLine, state })),
    ).toEqual(byPlace(expected).map(({ file, line, endLine, state }) => ({ file, line, endLine, state })));
    expect(byPlace(found).map(({ file, line, endLine, severity }) => ({ file, line, endLine, severity }))).toEqual(
      byPlace(expected).map(({ file, line, endLine, severity }) => ({ file, line, endLine, severity })),
    );
    // Its fingerprint is the one the window makes of the finding the renderer finds (file and title).
    expect(byPlace(found).map((finding) => findingFingerprint(finding.file, finding.title))).toEqual(
      byPlace(imported.findings).map((finding) => finding.fingerprint),
    );
    // Each finding's block holds ESLint's message, under the heading of its rule.
    const lines = imported.markdown.split('\n');
    for (const finding of imported.findings) {
      const item = lines[finding.markdownLine - 1];
      const match = expected.find((e) => e.file === finding.file && e.line === finding.line && item.includes(e.text));
      expect(match).toBeDefined();
      const heading = lines
        .slice(0, finding.markdownLine)
        .reverse()
        .find((line) => line.startsWith('### '));
      expect(heading).toContain(match!.rule);
    }
  });
});
