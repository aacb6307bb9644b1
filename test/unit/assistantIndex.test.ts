// The list of assistants' folders when two windows share the storage folder: each adds its own
// assistant, and neither's drops out of the list the other writes.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AssistantIndex } from '../../extension/src/review/assistantIndex';
import { logTo } from '../support/loggedLines';

let root: string;
beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-index-'))));
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('two windows adding assistants at once both keep theirs', async () => {
  const warnings: string[] = [];
  const [one, two] = await Promise.all([
    AssistantIndex.load(root, logTo(warnings)),
    AssistantIndex.load(root, logTo(warnings)),
  ]);
  await Promise.all([
    one.add({ name: 'claude-code', dir: '' }),
    two.add({ name: 'codex', dir: AssistantIndex.dirFor('codex') }),
    one.add({ name: 'gemini', dir: AssistantIndex.dirFor('gemini') }),
  ]);
  const reread = await AssistantIndex.load(root, logTo(warnings));
  expect(reread.all.map((entry) => entry.name).sort()).toEqual(['claude-code', 'codex', 'gemini']);
  expect(warnings).toEqual([]);
  expect(fs.readdirSync(root)).toEqual(['assistants.json']);
});
