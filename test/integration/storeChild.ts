// Drives a window's review store and conversation in a process of its own (storeProcess.ts): a
// test can SIGKILL it the moment a reply arrives, or run two of them on one storage folder.

import { fork, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { bundleForChild } from './childBundle';
import { WAIT_DEADLINE_MS } from '../support/deadlines.cjs';
import type { PresentRequest } from '../../extension/src/review/reviewStore';
import type { StoreProcessFolders, StoreProcessMessage, StoreProcessRequest } from './storeProcess';

let bundle: string | undefined;

/** A scratch folder for the calling test file, with storeProcess.ts bundled into it before the tests run. */
export function storeChildren(): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-store-child-'));
  beforeAll(() => {
    bundle = path.join(work, 'storeProcess.js');
    bundleForChild(path.join(__dirname, 'storeProcess.ts'), bundle);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  return work;
}

export class StoreChild {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: number) => void; reject: (error: Error) => void }>();
  private readonly exited: Promise<void>;
  private constructor(readonly process: ChildProcess) {
    this.exited = new Promise((resolve) => process.once('exit', () => resolve()));
    process.on('message', (message: StoreProcessMessage) => {
      const waiter = message.type === 'ready' ? undefined : this.pending.get(message.id);
      if (!waiter || message.type === 'ready') return;
      this.pending.delete(message.id);
      if (message.type === 'done') waiter.resolve(message.value);
      else waiter.reject(new Error(message.message));
    });
  }

  static start(folders: StoreProcessFolders): Promise<StoreChild> {
    if (!bundle) throw new Error('call storeChildren() in the test file first');
    const child = new StoreChild(
      fork(bundle, [JSON.stringify(folders)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
    );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the store process did not start within ${WAIT_DEADLINE_MS / 1000} s`)),
        WAIT_DEADLINE_MS,
      );
      child.process.once('exit', (code, signal) =>
        reject(new Error(`the store process exited early (${code ?? signal})`)),
      );
      child.process.once('message', (message: StoreProcessMessage) => {
        clearTimeout(timer);
        if (message.type === 'ready') resolve(child);
      });
    });
  }

  /** Resolves with the revision from the child's "done" reply, sent once the review is durable. */
  present(request: PresentRequest): Promise<number> {
    return this.send((id) => ({ type: 'present', id, request }));
  }

  /** Adds a message to the conversation; resolves with its id once it is durable. */
  say(text: string): Promise<number> {
    return this.send((id) => ({ type: 'say', id, text }));
  }

  /** Ends the child as a window closes: its store and conversation disposed first. */
  async close(): Promise<void> {
    this.process.disconnect();
    await this.exited;
  }

  /** SIGKILL now (synchronously, so nothing more is read from the child first); resolves when it is gone. */
  kill(): Promise<void> {
    this.process.kill('SIGKILL');
    return this.exited;
  }

  private send(request: (id: number) => StoreProcessRequest): Promise<number> {
    const id = this.nextId++;
    const reply = new Promise<number>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.process.send(request(id));
    return reply;
  }
}
