// Hosts started the way BridgeHost starts a window's bridge (it needs `vscode`, so it cannot run
// here): the real private directory, dead hosts' files swept, a socket of this host's own, and a
// discovery file for its folder. In this process, or in a child process a test can SIGKILL.

import { fork, spawnSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { removeDiscoveryFile } from '../../shared/discovery';
import { RUNTIME_DIR_ENV } from '../../shared/environment';
import { createToken } from '../../extension/src/ipc/token';
import { removeDeadHostSockets, socketLocation, type SocketLocation } from '../../extension/src/ipc/socketLocation';
import { bundleForChild } from '../integration/childBundle';
import { RENDER_WORKER, startHost, type Host } from '../integration/harness';
import type { ChildHostMessage, ChildHostOptions } from './hostProcess';
import { publishWindow } from './windowDiscovery';

export interface WindowHost {
  readonly host: Host;
  readonly location: SocketLocation;
  readonly discoveryFile: string;
  stop(): Promise<void>;
}

export interface WindowOptions {
  readonly token?: string;
  /** The window's workspace folder in its discovery file; the host's own temp workspace by default. */
  readonly folder?: string;
  /** The host's workspace folder itself (see startHost); with `folder`, a window that really has that folder open. */
  readonly workspace?: string;
  readonly lastFocused?: number;
  /** The shells of its terminals. */
  readonly terminals?: number[];
}

/** A window's host in this process. `process.env.REDLINE_RUNTIME_DIR` decides where its socket goes. */
export async function startWindowHost(options: WindowOptions = {}): Promise<WindowHost> {
  const location = socketLocation(createToken().slice(0, 12));
  removeDeadHostSockets(location.directory);
  const host = await startHost({ socketPath: location.path, token: options.token, workspace: options.workspace });
  const discoveryFile = publishWindow(
    location,
    host.token,
    [options.folder ?? host.workspace],
    options.lastFocused,
    options.terminals,
  );
  return {
    host,
    location,
    discoveryFile,
    async stop() {
      removeDiscoveryFile(discoveryFile);
      await host.stop();
    },
  };
}

/** A window's host in a child process: get-selection hangs there, and the parent hears when it is asked. */
export interface ChildHost {
  readonly pid: number;
  readonly socketPath: string;
  readonly discoveryFile: string;
  /** Resolves when the host starts handling a get-selection request (which then never finishes). */
  readonly selectionRequested: Promise<void>;
  readonly exited: Promise<void>;
  readonly process: ChildProcess;
}

let bundled: string | undefined;

/** hostProcess.ts bundled once per test file (remove it with removeHostBundle), so the child runs the same TypeScript as the tests. */
function hostBundle(): string {
  if (bundled && fs.existsSync(bundled)) return bundled;
  const outfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rl-host-')), 'hostProcess.js');
  bundleForChild(path.join(__dirname, 'hostProcess.ts'), outfile);
  bundled = outfile;
  return outfile;
}

export function removeHostBundle(): void {
  if (bundled) fs.rmSync(path.dirname(bundled), { recursive: true, force: true });
  bundled = undefined;
}

/** Starts a host in a child process whose socket directory is under `runtimeDir`. */
export function forkWindowHost(runtimeDir: string, token: string, folder: string): Promise<ChildHost> {
  const options: ChildHostOptions = { token, folder };
  const child = fork(hostBundle(), [JSON.stringify(options)], {
    // Its temp workspace goes under runtimeDir too, so a SIGKILL leaves nothing outside it.
    env: {
      PATH: process.env.PATH,
      XDG_RUNTIME_DIR: runtimeDir,
      TMPDIR: runtimeDir,
      [RUNTIME_DIR_ENV]: path.join(runtimeDir, 'redline'),
      REDLINE_RENDER_WORKER: RENDER_WORKER,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let onSelection!: () => void;
  const selectionRequested = new Promise<void>((resolve) => (onSelection = resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the child host did not start within 10 s')), 10_000);
    child.once('exit', (code, signal) => reject(new Error(`the child host exited early (${code ?? signal})`)));
    child.on('message', (message: ChildHostMessage) => {
      if (message.type === 'selection-requested') onSelection();
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({
          pid: child.pid!,
          socketPath: message.socketPath,
          discoveryFile: message.discoveryFile,
          selectionRequested,
          exited,
          process: child,
        });
      }
    });
  });
}

/**
 * Makes a fresh runtime directory (what XDG_RUNTIME_DIR is for a user) and points this process at
 * it: a host started here puts its socket and discovery file in <dir>/redline, as it would under
 * XDG_RUNTIME_DIR, and REDLINE_RUNTIME_DIR keeps the MCP servers a test starts from looking anywhere else.
 */
export function useRuntimeDir(): { readonly dir: string; restore(): void } {
  const saved = { xdg: process.env.XDG_RUNTIME_DIR, own: process.env[RUNTIME_DIR_ENV] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-xdg-'));
  process.env.XDG_RUNTIME_DIR = dir;
  process.env[RUNTIME_DIR_ENV] = path.join(dir, 'redline');
  const put = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  return {
    dir,
    restore() {
      put('XDG_RUNTIME_DIR', saved.xdg);
      put(RUNTIME_DIR_ENV, saved.own);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Binds `socketPath` in a process that is then SIGKILLed, so the socket file stays behind. */
export function leaveStaleSocket(socketPath: string): void {
  const script = `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`;
  spawnSync(process.execPath, ['-e', script], { timeout: 10_000 });
}
