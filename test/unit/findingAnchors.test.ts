import { promises as fsp } from 'fs';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FindingAnchors } from '../../extension/src/review/findingAnchors';
import { AnchorFile } from '../../extension/src/review/anchorFile';

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
    // Closed at first; open, with two lines added, once the edit comes.
    let open: string[] | undefined = undefined;
    const anchors = new FindingAnchors(() => open);
    await anchors.remember([{ id: 'f-1', file, line: 10, endLine: 11 }]);
    open = ['a', 'b', ...lines];
    const moved: number[] = [];
    anchors.onDidMove(() => moved.push(1));
    anchors.followEdits(
      file,
      [{ startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0, text: 'a\nb\n' }],
      () => open!,
    );
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

describe('what findings remember, across a reload', () => {
  let dir: string;
  let source: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redline-anchor-file-'));
    source = path.join(dir, 'a.ts');
    fs.writeFileSync(source, ['one', 'two', 'const answer = 42;', 'four', 'five'].join('\n'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const finding = { id: 'f-answer', file: '', line: 3, endLine: 3 };
  const anchorsIn = (folder: string) => new FindingAnchors(undefined, new AnchorFile(folder, () => undefined));

  it('still looks for the lines it was presented with: code changed while VS Code was closed stays "code changed"', async () => {
    const before = anchorsIn(path.join(dir, 'conversation'));
    await before.remember([{ ...finding, file: source }]);
    await before.dispose();
    fs.writeFileSync(source, ['one', 'two', 'const answer = 43;', 'four', 'five'].join('\n'));

    const after = anchorsIn(path.join(dir, 'conversation'));
    await after.track([{ ...finding, file: source }]);
    expect((await after.positions()).get('f-answer')).toMatchObject({ line: 3, stale: true });
    await after.dispose();
  });

  it('finds the lines where they moved to meanwhile', async () => {
    const before = anchorsIn(path.join(dir, 'conversation'));
    await before.remember([{ ...finding, file: source }]);
    await before.dispose();
    fs.writeFileSync(source, ['new', 'lines', 'one', 'two', 'const answer = 42;', 'four'].join('\n'));
    const after = anchorsIn(path.join(dir, 'conversation'));
    await after.track([{ ...finding, file: source }]);
    expect((await after.positions()).get('f-answer')).toMatchObject({ line: 5, endLine: 5, stale: false });
    await after.dispose();
  });

  it('never takes over a stored anchor for another file, and moves a bad file aside', async () => {
    const conversation = path.join(dir, 'conversation');
    fs.mkdirSync(conversation);
    const elsewhere = { id: 'f-answer', file: '/etc/passwd', line: 1, endLine: 1, remembered: ['root'], stale: false };
    fs.writeFileSync(path.join(conversation, 'anchors.json'), JSON.stringify({ version: 1, anchors: [elsewhere] }));
    const anchors = anchorsIn(conversation);
    await anchors.track([{ ...finding, file: source }]);
    expect((await anchors.positions()).get('f-answer')).toMatchObject({ file: source, line: 3, stale: false });
    await anchors.dispose();

    fs.writeFileSync(path.join(conversation, 'anchors.json'), '{"version":1,"anchors":[{"id":');
    const warnings: string[] = [];
    const reread = new FindingAnchors(undefined, new AnchorFile(conversation, (message) => warnings.push(message)));
    await reread.track([{ ...finding, file: source }]);
    expect(warnings.join('\n')).toMatch(/remembered lines of the findings .* moved it aside/);
    await reread.dispose();
  });
});
