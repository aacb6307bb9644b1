import type { WindowRecord } from '../../shared/discovery';
import { describeWindows, rankWindows, terminalOwners } from '../../mcp-server/src/windowChoice';
import { processAncestors } from '../../mcp-server/src/processAncestry';

function window(
  folders: string[],
  lastFocused: number,
  editor = 'Visual Studio Code',
  terminals: number[] = [],
  started = 0,
): WindowRecord {
  return {
    version: 1,
    pid: 1,
    folders,
    socketPath: `/run/${folders[0] ?? 'none'}.sock`,
    token: 'a'.repeat(32),
    editor,
    lastFocused,
    started,
    terminals,
  };
}

describe('which window an MCP server belongs to', () => {
  it('matches folders on whole path segments: /a/b contains /a/b and /a/b/c, never /a/bc', () => {
    const ab = window(['/a/b'], 1);
    expect(rankWindows([ab], ['/a/b'], 'linux')).toHaveLength(1);
    expect(rankWindows([ab], ['/a/b/c/d'], 'linux')).toHaveLength(1);
    expect(rankWindows([ab], ['/a/bc'], 'linux')).toEqual([]);
    expect(rankWindows([ab], ['/a'], 'linux')).toEqual([]);
    expect(rankWindows([ab], ['/a/b/../bc'], 'linux')).toEqual([]);
    // A child whose name starts with two dots is still inside.
    expect(rankWindows([ab], ['/a/b/..hidden'], 'linux')).toHaveLength(1);
  });

  it('prefers the deepest folder, then the window focused last', () => {
    const outer = window(['/work'], 300);
    const inner = window(['/work/app'], 100);
    const innerToo = window(['/work/app'], 200);
    const ranked = rankWindows([outer, inner, innerToo], ['/work/app/src'], 'linux');
    expect(ranked.map((m) => m.window)).toEqual([innerToo, inner, outer]);
    expect(ranked[0].folder).toBe('/work/app');
  });

  it('uses the best folder of a multi-root window', () => {
    const multi = window(['/work', '/work/app/lib'], 1);
    expect(rankWindows([multi], ['/work/app/lib/x'], 'linux')[0].folder).toBe('/work/app/lib');
  });

  it('accepts any of several places (a path as given and as it really is)', () => {
    const real = window(['/home/u/project'], 1);
    expect(rankWindows([real], ['/link/project', '/home/u/project'], 'linux')).toHaveLength(1);
  });

  it('compares Windows paths without regard to case or separator, on segments too', () => {
    const win = window(['C:\\Users\\Ann\\Project'], 1);
    expect(rankWindows([win], ['c:\\users\\ann\\project\\src'], 'win32')).toHaveLength(1);
    expect(rankWindows([win], ['C:/Users/Ann/Project/src'], 'win32')).toHaveLength(1);
    expect(rankWindows([win], ['C:\\Users\\Ann\\Project2'], 'win32')).toEqual([]);
    expect(rankWindows([win], ['D:\\Users\\Ann\\Project'], 'win32')).toEqual([]);
  });

  it('ignores relative paths on either side', () => {
    expect(rankWindows([window(['project'], 1)], ['project/src'], 'linux')).toEqual([]);
    expect(rankWindows([window(['/p'], 1)], ['p/src'], 'linux')).toEqual([]);
  });

  it("finds the windows of the server's terminal, newest host first", () => {
    const ghost = window(['/a'], 9, 'Code', [10, 11], 100);
    const reloaded = window(['/a'], 1, 'Code', [10], 200);
    const other = window(['/b'], 1, 'Code', [12], 300);
    expect(terminalOwners([ghost, reloaded, other], [99, 10, 1])).toEqual([reloaded, ghost]);
    expect(terminalOwners([ghost], [])).toEqual([]);
  });

  it('reads the real chain of parent processes', () => {
    const ancestors = processAncestors();
    expect(ancestors[0]).toBe(process.ppid);
    expect(new Set(ancestors).size).toBe(ancestors.length);
    expect(processAncestors(process.pid, 'win32')).toEqual([]);
  });

  it('lists the open windows for an error: each folder with its editor', () => {
    const text = describeWindows([window(['/a', '/b'], 1, 'Cursor'), window([], 1, 'code-server')]);
    expect(text).toBe('  /a (Cursor)\n  /b (Cursor)\n  (a window with no folder open) (code-server)');
  });
});
