import * as path from 'path';
import { diagnosticsReport, type RawDiagnostic } from '../../extension/src/editor/diagnosticsReport';
import { MAX_DIAGNOSTICS } from '../../shared/protocol';

const at = (line: number, severity: number, message = `problem at ${line}`): RawDiagnostic => ({
  start: { line, character: 4 },
  end: { line, character: 9 },
  severity,
  message,
  source: 'ts',
  code: 2322,
});

describe("get-diagnostics from the editor's diagnostics", () => {
  const folders = ['/work/app'];
  const files = [
    { file: '/work/app/src/b.ts', diagnostics: [at(9, 1), at(2, 0)] },
    { file: '/work/app/src/a.ts', diagnostics: [at(5, 3), at(1, 2)] },
    { file: '/work/app-other/secret.ts', diagnostics: [at(0, 0)] },
    { file: '/home/u/.ssh/config', diagnostics: [at(0, 0)] },
  ];

  it('leaves out files outside the workspace folders, and is 1-based, most severe first', () => {
    const report = diagnosticsReport({}, { files, folders, flavour: path.posix });
    expect(report.total).toBe(4);
    expect(report.truncated).toBe(false);
    expect(report.diagnostics.map((d) => `${d.path}:${d.start.line} ${d.severity}`)).toEqual([
      'src/b.ts:3 error',
      'src/b.ts:10 warning',
      'src/a.ts:2 information',
      'src/a.ts:6 hint',
    ]);
    expect(report.diagnostics[0]).toEqual({
      path: 'src/b.ts',
      workspaceFolder: '/work/app',
      start: { line: 3, column: 5 },
      end: { line: 3, column: 10 },
      severity: 'error',
      message: 'problem at 2',
      source: 'ts',
      code: 2322,
    });
  });

  it('takes the least severe level wanted, and one file, relative or absolute', () => {
    expect(
      diagnosticsReport({ severity: 'warning' }, { files, folders, flavour: path.posix }).diagnostics.map(
        (d) => d.severity,
      ),
    ).toEqual(['error', 'warning']);
    expect(diagnosticsReport({ file: 'src/a.ts' }, { files, folders, flavour: path.posix }).total).toBe(2);
    expect(
      diagnosticsReport({ file: '/work/app/src/b.ts', severity: 'error' }, { files, folders, flavour: path.posix })
        .total,
    ).toBe(1);
    expect(diagnosticsReport({ file: '../app-other/secret.ts' }, { files, folders, flavour: path.posix }).total).toBe(
      0,
    );
  });

  it(`returns at most ${MAX_DIAGNOSTICS}, says how many there were, and cuts long messages`, () => {
    const many = [
      {
        file: '/work/app/big.ts',
        diagnostics: Array.from({ length: MAX_DIAGNOSTICS + 20 }, (_, i) => at(i, 0, 'x'.repeat(5000))),
      },
    ];
    const report = diagnosticsReport({}, { files: many, folders, flavour: path.posix });
    expect(report.diagnostics).toHaveLength(MAX_DIAGNOSTICS);
    expect(report).toMatchObject({ total: MAX_DIAGNOSTICS + 20, truncated: true });
    expect(report.diagnostics[0].message).toHaveLength(2000);
  });

  it('works with Windows paths', () => {
    const report = diagnosticsReport(
      { file: 'src\\a.ts' },
      {
        files: [{ file: 'C:\\work\\app\\src\\a.ts', diagnostics: [at(0, 0)] }],
        folders: ['C:\\work\\app'],
        flavour: path.win32,
      },
    );
    expect(report.diagnostics.map((d) => d.path)).toEqual(['src/a.ts']);
  });
});
