// Microsoft's SARIF validator (the SARIF SDK's Multitool) over the export: the JSON schema and its
// own rules for what a SARIF producer should write. It is a self-contained .NET program in
// node_modules; two things make it run on a fresh `npm ci`:
//   - npm no longer runs its postinstall (`chmod u+x`) without approval, so this test sets the bit;
//   - DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1, so that it needs no libicu on the machine.

import { execFile } from 'child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import type * as Sarif from 'sarif';
import { toSarif } from '../../../shared/exchange/sarifExport';
import { sampleReview } from './sampleReview';

const MULTITOOL = join(__dirname, '../../../node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

function executable(path: string): string {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    chmodSync(path, statSync(path).mode | 0o100);
  }
  return path;
}

/** The validator's findings about each log, as "level ruleId: where, what" lines (its messages are by id, with arguments). */
async function validate(logs: Record<string, unknown>): Promise<Record<string, string[]>> {
  const folder = mkdtempSync(join(tmpdir(), 'redline-sarif-'));
  try {
    const output = join(folder, 'validation.sarif');
    for (const [name, log] of Object.entries(logs))
      writeFileSync(join(folder, `${name}.sarif`), JSON.stringify(log, null, 2));
    // One run for all the logs: the program takes seconds to start on a busy machine.
    const inputs = Object.keys(logs).map((name) => join(folder, `${name}.sarif`));
    await promisify(execFile)(
      executable(MULTITOOL),
      ['validate', ...inputs, '--output', output, '--log', 'ForceOverwrite', '--quiet'],
      {
        env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
        cwd: folder,
      },
    );
    const validation = JSON.parse(readFileSync(output, 'utf8')) as Sarif.Log;
    expect(validation.runs[0].tool.driver.name).toBe('Sarif.Multitool');
    const found: Record<string, string[]> = Object.fromEntries(Object.keys(logs).map((name) => [name, []]));
    for (const result of validation.runs[0].results ?? []) {
      const uri = result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
      const name = Object.keys(logs).find((key) => uri.endsWith(`/${key}.sarif`)) ?? 'elsewhere';
      (found[name] ??= []).push(
        `${result.level ?? 'warning'} ${result.ruleId}: ${result.message.text ?? (result.message.arguments ?? []).join(', ')}`,
      );
    }
    return found;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('SARIF Multitool validate', () => {
  it('finds no error or warning in the export, and does report a broken log (so that its silence means something)', async () => {
    const { log } = toSarif(sampleReview);
    const broken = {
      ...log,
      runs: [{ ...log.runs[0], results: [{ ...log.runs[0].results![0], message: undefined }] }],
    };
    const found = await validate({ review: log, broken });
    expect(found.review.filter((finding) => /^(error|warning) /.test(finding))).toEqual([]);
    expect(found.broken).toContain('error JSON1002: runs[0].results[0], message');
    expect(found.elsewhere).toBeUndefined();
  });
});
