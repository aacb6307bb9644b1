import { promises as fsp } from 'fs';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FindingAnchors } from '../../extension/src/findings/findingAnchors';

describe('finding anchors on disk', () => {
  let dir: string;
  let file: string;
  const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-anchors-'));
    file = path.join(dir, 'a.ts');
    fs.writeFileSync(file, lines.join('\n'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a closed file again only when it changed on disk', async () => {
    const anchors = new FindingAnchors();
    await anchors.remember([{ id: 'f-1', file, line: 42, endLine: 42 }]);
    const reads = jest.spyOn(fsp, 'readFile');
    try {
      await anchors.positions();
      await anchors.positions();
      expect(reads).toHaveBeenCalledTimes(1);
      fs.writeFileSync(file, ['new', ...lines].join('\n'));
      expect((await anchors.positions()).get('f-1')).toEqual({ file, line: 43, endLine: 43, stale: false });
      expect(reads).toHaveBeenCalledTimes(2);
      fs.rmSync(file);
      expect((await anchors.positions()).get('f-1')).toMatchObject({ line: 43, stale: true });
    } finally {
      reads.mockRestore();
    }
  });

  it('follows the open document, saved or not, without reading the disk', async () => {
    let open: string[] | undefined;
    const anchors = new FindingAnchors(() => open);
    await anchors.remember([{ id: 'f-1', file, line: 10, endLine: 11 }]);
    open = ['a', 'b', ...lines];
    const moved: number[] = [];
    anchors.onDidMove(() => moved.push(1));
    anchors.followEdits(file, [{ startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0, text: 'a\nb\n' }], () => open!);
    expect(anchors.known().get('f-1')).toEqual({ file, line: 12, endLine: 13, stale: false });
    expect(moved).toHaveLength(1);
    const reads = jest.spyOn(fsp, 'readFile');
    try {
      expect((await anchors.positions()).get('f-1')).toMatchObject({ line: 12, stale: false });
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });
});
