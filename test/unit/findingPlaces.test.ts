// A part added to a review (an append the panel shows on its own) numbers a text it repeats after
// the findings above it, as the whole review does: the renderer knows where each review's findings
// are, from a whole render or from what an append noted, and the part's HTML carries those ids.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ReviewRenderer } from '../../extension/src/render/reviewRenderer';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-places-'));
  fs.writeFileSync(path.join(root, 'a.ts'), 'one\ntwo\nthree\n');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const finding = '- bug: the loop never stops at a.ts:2\n';

it('numbers a repeated finding in an appended part after the ones above it, with the ids a whole render gives', async () => {
  const renderer = new ReviewRenderer(() => [root]);
  try {
    const first = { revision: 1, markdown: `# R\n\n${finding}` };
    const [original] = (await renderer.render(first)).findings;
    // Known from its whole render, without rendering again.
    expect(await renderer.findingIdsAbove(first, 10, { render: false })).toEqual(new Set([original.id]));

    // The append's review is not rendered whole: what the append noted says where its findings are.
    const second = { revision: 2, markdown: `${first.markdown}\n${finding}` };
    expect(await renderer.findingIdsAbove(second, 4, { render: false })).toBeUndefined();
    renderer.noteFindingPlaces(
      second,
      Promise.resolve([
        { id: original.id, line: 2 },
        { id: `${original.id}-2`, line: 4 },
      ]),
    );
    const taken = await renderer.findingIdsAbove(second, 4, { render: false });
    expect(taken).toEqual(new Set([original.id]));

    const part = await renderer.renderFragment(finding, undefined, { lineOffset: 4, takenFindingIds: taken });
    const whole = await renderer.renderFragment(second.markdown, undefined);
    expect(part.html).toContain(`data-finding="${original.id}-2"`);
    expect(whole.findings.map((f) => f.id)).toEqual([original.id, `${original.id}-2`]);
  } finally {
    await renderer.dispose();
  }
});
