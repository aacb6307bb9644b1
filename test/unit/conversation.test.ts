import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Conversation, MAX_FEEDBACK_ITEMS } from '../../extension/src/review/conversation';
import { JOURNAL_FILE } from '../../extension/src/review/feedbackJournal';
import { MAX_FEEDBACK_TEXT } from '../../shared/protocol';
import { silentLogger } from '../../shared/logger';
import { logTo } from '../support/loggedLines';

describe('the conversation', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-conv-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps items in order with increasing ids, and states by finding', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    const seen: string[] = [];
    conversation.onDidAdd((item) => seen.push(item.id));
    await conversation.add({ kind: 'reply', findingId: 'f-a', text: 'why?' });
    await conversation.add({ kind: 'state', findingId: 'f-a', state: 'accepted' });
    await conversation.add({ kind: 'message', text: 'thanks' });
    expect(seen).toEqual(['1', '2', '3']);
    expect(conversation.stateOf('f-a')).toBe('accepted');
    expect(conversation.stateOf('f-b')).toBe('open');
    expect(conversation.repliesTo('f-a').map((i) => i.text)).toEqual(['why?']);
    expect(conversation.since('1')).toMatchObject({ cursor: '3', items: [{ id: '2' }, { id: '3' }] });
    expect(conversation.since('3')).toEqual({ cursor: '3', items: [] });
    // A cursor from the future (another window's) reads nothing and gets the real cursor back.
    expect(conversation.since('99')).toEqual({ cursor: '3', items: [] });
  });

  it('is on disk when add resolves, and a new window reads it back', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    await Promise.all([
      conversation.add({ kind: 'state', findingId: 'f-a', state: 'resolved' }),
      conversation.add({ kind: 'message', text: 'one' }),
    ]);
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.since()).toEqual(conversation.since());
    expect(reopened.stateOf('f-a')).toBe('resolved');
    expect((await reopened.add({ kind: 'message', text: 'two' })).id).toBe('3');
  });

  it('moves a corrupt file aside with one warning, and starts empty', async () => {
    fs.writeFileSync(path.join(dir, 'conversation.json'), '{"version":1,"next":"x"}');
    const warnings: string[] = [];
    const conversation = await Conversation.open(dir, logTo(warnings));
    expect(conversation.since()).toEqual({ cursor: '0', items: [] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('moved it aside');
    expect(fs.readdirSync(dir).some((name) => name.startsWith('conversation.json.corrupt-'))).toBe(true);
  });

  it('keeps the items of a file whose next id is absurd, numbered again, and goes on counting', async () => {
    const items = [
      { id: '7', kind: 'message', text: 'first', at: 'then' },
      { id: '9007199254740990', kind: 'message', text: 'second', at: 'then' },
    ];
    fs.writeFileSync(
      path.join(dir, 'conversation.json'),
      JSON.stringify({ version: 1, next: Number.MAX_SAFE_INTEGER, items, states: [] }),
    );
    const warnings: string[] = [];
    const conversation = await Conversation.open(dir, logTo(warnings));
    expect(conversation.since().items.map((item) => [item.id, item.text])).toEqual([
      ['1', 'first'],
      ['2', 'second'],
    ]);
    expect(warnings).toEqual([expect.stringContaining('renumbered the stored feedback')]);
    expect((await conversation.add({ kind: 'message', text: 'third' })).id).toBe('3');
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.since().items.map((item) => item.text)).toEqual(['first', 'second', 'third']);
  });

  it('refuses stored items newer than the next id', async () => {
    const stored = { version: 1, next: 2, items: [{ id: '5', kind: 'message', text: 'x', at: 'now' }], states: [] };
    fs.writeFileSync(path.join(dir, 'conversation.json'), JSON.stringify(stored));
    const warnings: string[] = [];
    expect((await Conversation.open(dir, logTo(warnings))).since().items).toEqual([]);
    expect(warnings[0]).toContain('newer than the next id');
  });

  it('stays bounded: old items go, and a reader that fell behind is told', async () => {
    const conversation = Conversation.inMemory();
    for (let i = 0; i < MAX_FEEDBACK_ITEMS + 10; i++) await conversation.add({ kind: 'message', text: `m${i}` });
    const all = conversation.since('0');
    expect(all.items).toHaveLength(MAX_FEEDBACK_ITEMS);
    expect(all.truncated).toBe(true);
    expect(all.items[0].id).toBe('11');
    expect(conversation.since('10').truncated).toBeUndefined();
    const long = await conversation.add({ kind: 'message', text: 'x'.repeat(MAX_FEEDBACK_TEXT + 100) });
    expect(long.text).toHaveLength(MAX_FEEDBACK_TEXT);
  });

  it("saves the user's reply after another window appended a quarter of a million items", async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    await conversation.add({ kind: 'message', text: 'first' });
    // What another window on the same folder appended meanwhile: far more items than a function's
    // arguments may hold, so nothing may spread them into one call.
    const theirs = Array.from(
      { length: 250_000 },
      (_, i) =>
        JSON.stringify({ item: { id: String(i + 2), kind: 'message', text: 'x', at: '2026-11-26T00:00:00.000Z' } }) +
        '\n',
    );
    fs.appendFileSync(path.join(dir, JOURNAL_FILE), theirs.join(''));
    const added = await conversation.add({ kind: 'reply', findingId: 'f-a', text: 'still saved' });
    expect(added.id).toBe('250002');
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.since('250001').items.map((item) => item.text)).toEqual(['still saved']);
  });

  it('reports a save that failed to the caller, and keeps working once the folder is writable', async () => {
    const file = path.join(dir, 'blocked');
    fs.writeFileSync(file, 'not a folder');
    const warnings: string[] = [];
    const conversation = await Conversation.open(file, logTo(warnings));
    await expect(conversation.add({ kind: 'message', text: 'hi' })).rejects.toThrow(/could not save your feedback/);
    expect(warnings.at(-1)).toContain('could not save the feedback');
    // Taken back: the assistant never reads what was not saved, and the user's retry is the only copy.
    expect(conversation.since().items).toEqual([]);
    fs.rmSync(file);
    await conversation.add({ kind: 'message', text: 'hi' });
    expect((await Conversation.open(file, silentLogger)).since().items.map((i) => i.text)).toEqual(['hi']);
  });
});
