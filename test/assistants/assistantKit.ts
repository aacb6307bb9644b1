// The stage every real-assistant test shares: the integration kit's host (the window), a
// throwaway HOME with Redline's launcher in ~/.redline as Connect an Assistant leaves it, the fake
// model, and a way to run the real CLI, installed at its pinned version by the project's installer
// (test/e2e/harness/install.mjs). The CLI sees no API key, no network beyond 127.0.0.1, and none
// of this machine's own settings.

import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { discoveryFileName, writeDiscoveryFile } from '../../shared/discovery';
import { RUNTIME_DIR_ENV } from '../../shared/environment';
import { budgetRefusal, REVIEW_BUDGET } from '../../shared/reviewBudget';
import { updateStableServerPath } from '../../extension/src/assistants/stableServerPath';
import type { NodeCommand } from '../../extension/src/assistants/serverLaunch';
import { planConfigChange, writeConfigChange } from '../../extension/src/assistants/configFiles/configFile';
import { configTarget, serverEntry, type ConfigTarget } from '../../extension/src/assistants/configFiles/configTargets';
import { assertBuilt, MCP_SERVER, startHost, type Host } from '../integration/harness';
import { FakeModel, type FakeModelScript } from './fakeModel';

const INSTALLER = path.resolve(__dirname, '../e2e/harness/install.mjs');

/** Node 24 and the folder holding `claude`, `gemini` and `codex`. */
export interface InstalledClis {
  readonly nodePath: string;
  readonly bin: string;
}

let installed: InstalledClis | undefined;

/** The pinned CLIs, installed if they are not yet (a no-op after `npm test`'s install step). */
export function installedClis(): InstalledClis {
  installed ??= JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import(${JSON.stringify(INSTALLER)}).then(async (m) => console.log(JSON.stringify(await m.ensureAssistantClis())))`,
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 30 * 60_000,
      },
    )
      .trim()
      .split('\n')
      .pop()!,
  ) as InstalledClis;
  return installed;
}

/** A small review (100 KB) with one heading more than the cost budget allows: the window refuses it unshown. */
export const REFUSED_REVIEW = '#\n'.repeat(REVIEW_BUDGET.headings.limit + 1);
/** Why, as the window says it: what the model must be handed. */
export const REFUSAL_REASON = budgetRefusal(REFUSED_REVIEW)!;
/** What follows the reason in a failed result's text (mcp-server/src/tools/resultHints.ts). */
export const REFUSAL_CODE = 'Error code: TooLarge. Calling again as it is will not help';

/** What Connect an Assistant configures when `node` is on PATH. */
export const NODE_ON_PATH: NodeCommand = { command: 'node', env: {} };

export interface RunResult {
  /** The exit code, or the signal's name; 'timeout' when it was killed for taking too long. */
  readonly code: number | string;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** The environment of the MCP server the CLI started (read from /proc while it ran), if one was seen. */
  readonly serverEnv?: Record<string, string>;
}

export class Stage {
  private constructor(
    readonly host: Host,
    readonly model: FakeModel,
    private readonly root: string,
    /** The throwaway HOME, with ~/.redline/mcp-server.js in it. */
    readonly home: string,
    /** Its private temporary folder (TMPDIR), where the window's discovery file is. */
    readonly tmp: string,
    /** ~/.redline/mcp-server.js: what every config names. */
    readonly launcher: string,
  ) {}

  /**
   * A window with its discovery file (as every Redline window publishes one), a HOME, and a model
   * that plays `script`.
   */
  static async start(script: FakeModelScript): Promise<Stage> {
    assertBuilt();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rl-stage-'));
    const home = path.join(root, 'home');
    const tmp = path.join(root, 'tmp');
    const discovery = discoveryFolder(tmp);
    fs.mkdirSync(home, { mode: 0o700 });
    fs.mkdirSync(discovery, { recursive: true, mode: 0o700 });
    const host = await startHost({ socketPath: path.join(discovery, 'w.sock') });
    const launcher = updateStableServerPath(MCP_SERVER, '0.0.0-test', home).file;
    const now = Date.now();
    writeDiscoveryFile(path.join(discovery, discoveryFileName(process.pid, 'a1b2c3d4')), {
      version: 1,
      pid: process.pid,
      folders: [host.workspace],
      socketPath: host.socketPath,
      token: host.token,
      editor: 'Visual Studio Code',
      lastFocused: now,
      started: now,
      terminals: [],
    });
    return new Stage(host, await FakeModel.start(script), root, home, tmp, launcher);
  }

  /**
   * The CLI's environment: this HOME and TMPDIR, Node 24 first on PATH, and `extra`. Nothing else
   * of this machine's, so no real key, setting or REDLINE_* variable leaks in; REDLINE_RUNTIME_DIR
   * names the window's folder, so that no other window on this machine is found.
   */
  env(extra: Record<string, string> = {}): Record<string, string> {
    const nodeBin = path.dirname(installedClis().nodePath);
    return {
      PATH: `${nodeBin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: this.home,
      TMPDIR: this.tmp,
      [RUNTIME_DIR_ENV]: discoveryFolder(this.tmp),
      LANG: 'C.UTF-8',
      ...extra,
    };
  }

  /**
   * Writes the assistant's config file as Connect an Assistant does, over `existing` (the user's
   * own file, when they have one). Returns the target, for its path.
   */
  async connect(assistant: 'gemini' | 'codex', existing?: string): Promise<ConfigTarget> {
    const target = configTarget(assistant, { home: this.home })!;
    if (existing !== undefined) {
      fs.mkdirSync(path.dirname(target.file), { recursive: true });
      fs.writeFileSync(target.file, existing, { mode: 0o600 });
    }
    const plan = await planConfigChange(target, {
      kind: 'set',
      entry: serverEntry(assistant, this.launcher, NODE_ON_PATH),
    });
    if (plan.kind !== 'change')
      throw new Error(`Connect an Assistant would not write ${target.displayPath}: ${JSON.stringify(plan)}`);
    await writeConfigChange(plan.change);
    return target;
  }

  /** Runs one of the installed CLIs in the workspace with stdin closed, killing it after `timeoutMs`. */
  run(
    cli: 'claude' | 'gemini' | 'codex',
    args: readonly string[],
    env: Record<string, string>,
    timeoutMs = 120_000,
  ): Promise<RunResult> {
    const started = Date.now();
    let serverEnv: Record<string, string> | undefined;
    // The server lives only as long as the run: look for it while it does.
    const watch = setInterval(() => (serverEnv ??= environmentOfProcessRunning(this.launcher)), 50);
    return new Promise((resolve) => {
      const child = execFile(
        path.join(installedClis().bin, cli),
        args,
        { cwd: this.host.workspace, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          clearInterval(watch);
          const failure = error as (Error & { code?: number | string; signal?: string; killed?: boolean }) | null;
          const code = !failure ? 0 : failure.killed ? 'timeout' : (failure.code ?? failure.signal ?? failure.message);
          resolve({ code, stdout, stderr, ms: Date.now() - started, serverEnv });
        },
      );
      child.stdin?.end();
    });
  }

  /** For a failure message: what the CLI printed and what the model saw. */
  explain(result: RunResult): string {
    return `exit ${result.code} after ${result.ms} ms\n--- stdout ---\n${result.stdout.slice(-4000)}\n--- stderr ---\n${result.stderr.slice(-4000)}\n--- model ---\n${this.model.describe()}`;
  }

  /** The markdown the window holds for the assistant, whichever review the call went to. */
  presented(): string[] {
    return this.host.reviews.all
      .map((review) => review.store.current?.markdown)
      .filter((markdown): markdown is string => markdown !== undefined);
  }

  async stop(): Promise<void> {
    await this.model.stop();
    await this.host.stop();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** The environment of a live process whose command line names `script` (Linux's /proc), if there is one. */
function environmentOfProcessRunning(script: string): Record<string, string> | undefined {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(script)) continue;
      const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      return Object.fromEntries(
        entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      );
    } catch {
      // It exited while we looked.
    }
  }
  return undefined;
}

/** Where the window's socket and discovery file are, as its host makes them: <TMPDIR>/redline-<uid>, 0700. */
function discoveryFolder(tmp: string): string {
  return path.join(tmp, `redline-${process.getuid!()}`);
}
