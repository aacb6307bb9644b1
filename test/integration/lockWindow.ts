// Drives a lockWindowProcess.ts child from a test: starts it (bundled once per test file, possibly
// behind a command such as `unshare --pid`), sends it commands, and waits for its events.

import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import * as readline from 'readline';
import { bundleForChild } from './childBundle';
import type { LockWindowEvent, LockWindowSetup } from './lockWindowProcess';

/** Bundles the child into `directory`; returns the file to run with node. */
export function bundleLockWindow(directory: string): string {
  const bundle = path.join(directory, 'lockWindowProcess.js');
  bundleForChild(path.join(__dirname, 'lockWindowProcess.ts'), bundle);
  return bundle;
}

export class LockWindow {
  private readonly events: LockWindowEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly exited: Promise<void>;
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        this.events.push(JSON.parse(line) as LockWindowEvent);
      } catch {
        this.stderr += `${line}\n`;
      }
      this.waiters.forEach((wake) => wake());
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.once('exit', () => this.waiters.forEach((wake) => wake()));
  }

  /** `prefix`: a command that runs node, e.g. ['unshare', '--pid', '--fork', 'sh', '-c', '… "$@"', 'sh']. */
  static async start(bundle: string, setup: LockWindowSetup, prefix: readonly string[] = []): Promise<LockWindow> {
    const [command, ...args] = [...prefix, process.execPath, bundle, JSON.stringify(setup)];
    const window = new LockWindow(spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    await window.next('ready');
    return window;
  }

  /** The pid the child sees for itself (in its own PID namespace). */
  get pid(): number {
    const ready = this.events.find((event) => event.event === 'ready');
    return ready && 'pid' in ready ? ready.pid : -1;
  }

  /** The events so far, oldest first. */
  get seen(): readonly LockWindowEvent[] {
    return this.events;
  }

  send(command: 'hold' | 'release' | 'take'): void {
    this.child.stdin!.write(`${command}\n`);
  }

  /** The first event of this kind (already seen or still to come); rejects if the child exits first. */
  async next<K extends LockWindowEvent['event']>(kind: K): Promise<Extract<LockWindowEvent, { event: K }>> {
    for (;;) {
      const found = this.events.find((event) => event.event === kind);
      if (found) return found as Extract<LockWindowEvent, { event: K }>;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the lock window exited before "${kind}"; its stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const wake = () => (this.waiters.delete(wake), resolve());
        this.waiters.add(wake);
      });
    }
  }

  /** Kills it (and, behind a prefix, its whole process group is not ours: the prefix's child dies with it). */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
    await this.exited;
  }
}
