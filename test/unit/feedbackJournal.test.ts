// Feedback as an append-only journal: a reply costs one line, a torn line or a bad one costs only
// itself, and a journal over the read limit keeps its newest items.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Conversation } from '../../extension/src/review/conversation';
import { JOURNAL_FILE, MAX_JOURNAL_READ_BYTES } from '../../extension/src/review/feedbackJournal';
import { MAX_FINDING_STATES } from '../../extension/src/review/recentStates';
import { MAX_FEEDBACK_TEXT } from '../../shared/protocol';
import { shortWrites } from './durableWrites';
import { monitorThreadHolds } from '../support/threadHolds';
import { silentLogger } from '../../shared/logger';
import { logTo } from '../support/loggedLines';

describe('the feedback journal', () => {
  let dir: string;
  let journal: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-journal-'));
    journal = path.join(dir, JOURNAL_FILE);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends one line per item, in place, and a new window reads the same items and states', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    await conversation.add({ kind: 'reply', findingId: 'f-a', text: 'why?' });
    const { ino, size } = fs.statSync(journal);
    const item = await conversation.add({ kind: 'state', findingId: 'f-a', state: 'accepted' });
    const after = fs.statSync(journal);
    // The same file, longer by exactly the new item's line: nothing was rewritten.
    expect(after.ino).toBe(ino);
    expect(after.size - size).toBe(Buffer.byteLength(`${JSON.stringify({ item })}\n`));
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.since()).toEqual(conversation.since());
    expect(reopened.stateOf('f-a')).toBe('accepted');
    expect((await reopened.add({ kind: 'message', text: 'next' })).id).toBe('3');
  });

  it('skips a line a crash cut short, and the next item starts a line of its own', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    await conversation.add({ kind: 'message', text: 'kept' });
    fs.appendFileSync(journal, '{"item":{"id":"2","kind":"mess');
    const warnings: string[] = [];
    const reopened = await Conversation.open(dir, logTo(warnings));
    expect(reopened.since().items.map((i) => i.text)).toEqual(['kept']);
    expect(warnings).toEqual([expect.stringContaining('skipped 1 unreadable line')]);
    await reopened.add({ kind: 'message', text: 'after the crash' });
    const third = await Conversation.open(dir, silentLogger);
    expect(third.since().items.map((i) => i.text)).toEqual(['kept', 'after the crash']);
  });

  it('keeps the newest items of a journal over the read limit (2,100 maximal replies, 115 MiB), not none', async () => {
    // As 2,100 maximal replies leave it: written directly, since 2,100 fsyncs would only slow the test.
    const text = '\u0001'.repeat(MAX_FEEDBACK_TEXT / 2) + 'x'.repeat(MAX_FEEDBACK_TEXT / 2);
    const lines: string[] = [];
    for (let id = 1; id <= 2_100; id++)
      lines.push(
        JSON.stringify({
          item: { id: String(id), kind: 'reply', findingId: `f-${id}`, text, at: '2026-11-24T00:00:00.000Z' },
        }),
      );
    fs.writeFileSync(journal, lines.join('\n') + '\n');
    const bytes = fs.statSync(journal).size;
    expect(bytes).toBeGreaterThan(MAX_JOURNAL_READ_BYTES);
    const warnings: string[] = [];
    const started = performance.now();
    const conversation = await Conversation.open(dir, logTo(warnings));
    const openMs = performance.now() - started;
    const ids = conversation.since().items.map((i) => Number(i.id));
    process.stdout.write(
      `[journal] ${(bytes / 1024 / 1024).toFixed(1)} MiB journal: kept ${ids.length} newest items (${ids[0]}–${ids.at(-1)}) in ${openMs.toFixed(0)} ms\n`,
    );
    expect(ids.length).toBeGreaterThan(1_000);
    expect(ids.at(-1)).toBe(2_100);
    expect(warnings).toEqual([expect.stringContaining('Redline read its newest 64 MiB')]);
    // And it goes on from there, appending in O(item).
    const before = fs.statSync(journal).size;
    const appendStarted = performance.now();
    expect((await conversation.add({ kind: 'message', text: 'one more' })).id).toBe('2101');
    // The first append compacts it below the read limit, so that it is not read from its end again.
    const after = fs.statSync(journal).size;
    process.stdout.write(
      `[journal] first append to it (compacting): ${(performance.now() - appendStarted).toFixed(0)} ms, ${(before / 1024 / 1024).toFixed(1)} → ${(after / 1024 / 1024).toFixed(1)} MiB\n`,
    );
    expect(after).toBeLessThan(MAX_JOURNAL_READ_BYTES);
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.since().items.at(-1)).toMatchObject({ id: '2101', text: 'one more' });
  });

  it("reads a journal of 200,000 decisions a slice at a time, keeping the newest findings' states", async () => {
    // Stored state is untrusted: a journal of this many short lines (400,000) once held the host's
    // thread for seconds in one piece, most of it dropping the oldest state one at a time.
    const lines: string[] = [];
    for (let id = 1; id <= 200_000; id++)
      lines.push(
        JSON.stringify({
          item: {
            id: String(id),
            kind: 'state',
            findingId: `f-${id}`,
            state: 'accepted',
            at: '2026-11-26T00:00:00.000Z',
          },
        }),
      );
    fs.writeFileSync(journal, lines.join('\n') + '\n');
    const stalls = monitorThreadHolds();
    stalls.enable();
    const started = performance.now();
    const conversation = await Conversation.open(dir, silentLogger);
    const openMs = performance.now() - started;
    // A stall at the very end is only seen once the loop gets its next turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    stalls.disable();
    const stall = stalls.maxMs;
    process.stdout.write(
      `[journal] 200,000 decisions (${(fs.statSync(journal).size / 1024 / 1024).toFixed(1)} MiB): open ${openMs.toFixed(0)} ms, longest stall ${stall.toFixed(0)} ms\n`,
    );
    // Generous: a slice is 8 ms, and a garbage collection on a busy machine adds its own.
    expect(stall).toBeLessThan(250);
    expect(conversation.stateOf('f-200000')).toBe('accepted');
    expect(conversation.stateOf(`f-${200_000 - MAX_FINDING_STATES + 1}`)).toBe('accepted');
    expect(conversation.stateOf(`f-${200_000 - MAX_FINDING_STATES}`)).toBe('open');
    expect((await conversation.add({ kind: 'message', text: 'next' })).id).toBe('200001');
  });

  it('compacts now and then: the header keeps the next id and the states, and items stay in order', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    const big = 'y'.repeat(MAX_FEEDBACK_TEXT);
    await conversation.add({ kind: 'state', findingId: 'f-keep', state: 'wont-fix' });
    // Past the compaction threshold (16 MiB appended).
    for (let i = 0; i < 1_100; i++) await conversation.add({ kind: 'reply', findingId: 'f-x', text: big });
    const firstLine = fs.readFileSync(journal, 'utf8').split('\n', 1)[0];
    expect(JSON.parse(firstLine)).toMatchObject({ v: 1, states: [['f-keep', 'wont-fix']] });
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.stateOf('f-keep')).toBe('wont-fix');
    expect(reopened.since().items.at(-1)!.id).toBe('1101');
    expect((await reopened.add({ kind: 'message', text: 'after' })).id).toBe('1102');
  });

  it('writes every byte of an item when the disk takes a few at a time, and fails the add when it takes none', async () => {
    const conversation = await Conversation.open(dir, silentLogger);
    await conversation.add({ kind: 'message', text: 'before' });
    // A disk whose write(2) takes at most `limit` bytes a call, as a full disk or a signal can.
    let limit = 7;
    const disk = await shortWrites(() => limit);
    const warnings: string[] = [];
    const texts = async () => (await Conversation.open(dir, logTo(warnings))).since().items.map((i) => i.text);
    try {
      await conversation.add({ kind: 'reply', findingId: 'f-a', text: 'every byte of this reply' });
      expect(await texts()).toEqual(['before', 'every byte of this reply']);
      limit = 0;
      await expect(conversation.add({ kind: 'message', text: 'not saved' })).rejects.toThrow(
        /could not save your feedback/,
      );
    } finally {
      disk.restore();
    }
    // The failed add left nothing behind: no torn line, nothing a reader skips.
    expect(await texts()).toEqual(['before', 'every byte of this reply']);
    expect(warnings).toEqual([]);
  });

  it('moves the earlier conversation.json into the journal once, and removes it', async () => {
    const stored = {
      version: 1,
      next: 3,
      items: [
        { id: '1', kind: 'message', text: 'old', at: 'then' },
        { id: '2', kind: 'state', findingId: 'f', state: 'resolved', at: 'then' },
      ],
      states: [['f', 'resolved']],
    };
    fs.writeFileSync(path.join(dir, 'conversation.json'), JSON.stringify(stored));
    const conversation = await Conversation.open(dir, silentLogger);
    expect(fs.existsSync(path.join(dir, 'conversation.json'))).toBe(false);
    expect(fs.existsSync(journal)).toBe(true);
    expect(conversation.since().items.map((i) => i.id)).toEqual(['1', '2']);
    const reopened = await Conversation.open(dir, silentLogger);
    expect(reopened.stateOf('f')).toBe('resolved');
    expect((await reopened.add({ kind: 'message', text: 'new' })).id).toBe('3');
  });
});
