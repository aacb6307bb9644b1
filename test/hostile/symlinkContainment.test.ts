// A link in the workspace that leads out of it (`ws/rootlink -> /`) must not make the rest of the
// disk "inside": the reference report gives no line count and no existence through it, a cwd in
// it does not become a place references start from, and opening through it asks first. A link
// that stays inside the workspace keeps working. Driven over a real window's socket.

jest.mock('vscode', () => jest.requireActual<typeof import('../unit/vscodeStub')>('../unit/vscodeStub').vscode, {
  virtual: true,
});

import * as fs from 'fs';
import * as path from 'path';
import { OUTSIDE_ROOTS } from '../../extension/src/render/referenceResolver';
import { ErrorCode, type ResultOf } from '../../shared/protocol';
import { seen } from '../unit/vscodeStub';
import type { WireReply } from '../integration/rawPeer';
import { OpenerWindow } from './openerWindow';

const OUTSIDE_FILE = '/etc/passwd';

let window: OpenerWindow;
let ws: string;

beforeAll(async () => {
  window = await OpenerWindow.start();
  ws = window.workspace;
  fs.symlinkSync('/', path.join(ws, 'rootlink'));
  // A link that stays inside: to the workspace's own src folder.
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'inner'));
});
afterAll(async () => {
  await window?.stop();
});
beforeEach(() => seen.reset());

const reasons = (reply: WireReply<ResultOf<'present-review'>>) =>
  reply.result!.references.broken.map((broken: { reason: string }) => broken.reason);

it('reports nothing about a file reached through a link that leads out of the workspace: no line count, no existence', async () => {
  const content =
    '- rootlink/etc/passwd:1\n- rootlink/etc/passwd:99999\n- rootlink/etc/nonexistent:1\n- `inner/example.ts:3`\n';
  const reply = await window.request('present-review', { content, cwd: ws });
  expect(reply.result!.references).toMatchObject({ total: 4, resolved: 1 });
  expect(reasons(reply)).toEqual([
    `rootlink/etc/passwd is ${OUTSIDE_ROOTS}`,
    `rootlink/etc/passwd is ${OUTSIDE_ROOTS}`,
    `rootlink/etc/nonexistent is ${OUTSIDE_ROOTS}`,
  ]);
});

it('does not start references from a cwd that is in the workspace only by its spelling', async () => {
  const reply = await window.request('present-review', {
    content: '- etc/passwd:99999\n',
    cwd: path.join(ws, 'rootlink'),
  });
  expect(reasons(reply)).toEqual([`no file etc/passwd in ${ws}`]);
});

it('keeps a link that stays inside the workspace working, as a reference and as a cwd', async () => {
  const reply = await window.request('present-review', {
    content: '- inner/example.ts:60\n- example.ts:61\n',
    cwd: path.join(ws, 'inner'),
  });
  expect(reply.result!.references).toMatchObject({ total: 2, resolved: 1 });
  expect(reasons(reply)).toEqual(['line 61 is past the end of example.ts (60 lines)']);
  const opened = await window.request('open-location', { reference: 'example.ts:3', cwd: path.join(ws, 'inner') });
  expect(opened.result).toMatchObject({ path: path.join(ws, 'inner', 'example.ts'), start: { line: 3 } });
  expect(seen.questions).toEqual([]);
});

it('never opens a file through a cwd in such a link without asking', async () => {
  const reply = await window.request('open-location', { reference: 'etc/hostname:1', cwd: path.join(ws, 'rootlink') });
  expect(reply.error).toMatchObject({ code: ErrorCode.NotFound });
  expect(seen.opened).toEqual([]);
});

it('asks before opening a file through a link in the workspace, and opens nothing when the user says no', async () => {
  const reply = await window.request('open-location', { reference: 'rootlink/etc/passwd:1', cwd: ws });
  expect(seen.questions).toEqual([`Open rootlink/etc/passwd? It is outside this window's workspace folders.`]);
  expect(reply.error).toMatchObject({ code: ErrorCode.Refused });
  expect(seen.opened).toEqual([]);
  seen.answer = 'Open';
  const agreed = await window.request('open-location', { reference: 'rootlink/etc/passwd:1', cwd: ws });
  expect(agreed.result).toMatchObject({ start: { line: 1 } });
  expect(seen.opened.map((opened) => fs.realpathSync(opened))).toEqual([OUTSIDE_FILE]);
});
