// Where the MCP server connects, best first: its terminal's window, REDLINE_IPC_PATH, the window
// whose folder holds its working directory, then (when none does) the window whose repository has
// it as a git worktree, then the windows of the client's MCP roots; or only the windows of the
// folder the user named. Read afresh on every connection, so a reloaded window is found again.

import * as path from 'path';
import { readDiscoveryFiles, WORKSPACE_ENV, type DiscoveredWindow } from '../../shared/discovery';
import { worktreeHolding } from '../../shared/gitWorktrees';
import { existingPrivateDirectories } from '../../shared/privateDirectory';
import { realpathOr } from '../../shared/realpath';
import { ErrorCode, IPC_PATH_ENV, IPC_TOKEN_ENV, IpcError } from '../../shared/protocol';
import { notConfigured } from './ipcErrors';
import { processAncestors } from './processAncestry';
import { describeWindows, rankWindows, terminalOwners } from './windowChoice';

/** One place to try, and how it was chosen (for the log and for errors). */
export interface Endpoint {
  readonly socketPath: string;
  readonly token: string;
  readonly via: string;
}

export interface LocatorOptions {
  /** REDLINE_IPC_PATH and REDLINE_IPC_TOKEN, as the terminal gave them. */
  readonly envPath?: string;
  readonly envToken?: string;
  /** The folder named by --workspace or REDLINE_WORKSPACE: then only its windows are tried. */
  readonly workspace?: { readonly folder: string; readonly from: string };
  readonly cwd: string;
  /** Where discovery files are; every private directory the extension may use by default. */
  readonly directories?: () => readonly string[];
  readonly platform?: NodeJS.Platform;
  /** This process's parent, grandparent…; read once, on first use, by default. */
  readonly ancestors?: () => readonly number[];
  /** The folders of the client's MCP roots, when it declared any (read at each connection). */
  readonly roots?: () => readonly string[];
}

export class WindowLocator {
  private ancestors: readonly number[] | undefined;

  constructor(private readonly options: LocatorOptions) {}

  /**
   * The endpoints to try, in order, leaving out the sockets found dead in this round. Throws an
   * IpcError that names the open windows and how to choose one when there is none.
   */
  candidates(dead: ReadonlySet<string> = new Set()): Endpoint[] {
    const { envPath, envToken } = this.options;
    const windows = readDiscoveryFiles(this.options.directories?.() ?? existingPrivateDirectories());
    const endpoints: Endpoint[] = [];
    const add = (endpoint: Endpoint) => {
      if (!dead.has(endpoint.socketPath) && !endpoints.some((e) => e.socketPath === endpoint.socketPath))
        endpoints.push(endpoint);
    };
    const place = this.place();
    // A folder the user named is their choice: only its windows are tried.
    if (!this.options.workspace) {
      // The window whose terminal this server runs in comes first: REDLINE_IPC_PATH may still
      // name a host that outlived that window's reload.
      for (const window of terminalOwners(windows, this.processAncestors())) {
        add({
          socketPath: window.socketPath,
          token: window.token,
          via: `the ${window.editor} window of this terminal`,
        });
      }
      if (envPath && !dead.has(envPath)) {
        // The window's own file has the token as it is now, after a "Rotate Token" too.
        const token = windows.find((window) => window.socketPath === envPath)?.token ?? envToken;
        if (!token) throw notConfigured(IPC_TOKEN_ENV);
        add({ socketPath: envPath, token, via: `the window named by ${IPC_PATH_ENV}` });
      }
    }
    const real = withRealFolders(windows);
    const byFolder = rankWindows(real, [place.folder, realpathOr(place.folder)], this.options.platform);
    for (const { window, folder } of byFolder)
      add({ socketPath: window.socketPath, token: window.token, via: `the ${window.editor} window of ${folder}` });
    const roots = this.options.workspace ? [] : (this.options.roots?.() ?? []);
    const distrusted = new Set<string>();
    if (byFolder.length === 0 && !this.options.workspace) {
      // A git worktree of a repository a window has open belongs to that window.
      for (const window of real) {
        const tree = worktreeHolding(place.folder, window.folders, { onDistrust: (why) => distrusted.add(why) });
        if (tree)
          add({
            socketPath: window.socketPath,
            token: window.token,
            via: `the ${window.editor} window of ${tree.folder}, whose repository has the worktree ${tree.worktree}`,
          });
      }
      // The client's MCP roots, as a working directory would.
      for (const root of roots) {
        for (const { window, folder } of rankWindows(real, [root, realpathOr(root)], this.options.platform)) {
          add({
            socketPath: window.socketPath,
            token: window.token,
            via: `the ${window.editor} window of ${folder}, which holds the client's root ${root}`,
          });
        }
      }
    }
    if (endpoints.length === 0)
      throw noWindow(windows, place, {
        envPath: this.options.workspace ? undefined : envPath,
        roots,
        distrusted: [...distrusted],
      });
    return endpoints;
  }

  private processAncestors(): readonly number[] {
    this.ancestors ??= this.options.ancestors?.() ?? processAncestors();
    return this.ancestors;
  }

  private place(): { folder: string; from: string } {
    const { workspace, cwd } = this.options;
    // `--workspace .` means the folder the server was started in.
    return workspace
      ? { ...workspace, folder: path.resolve(cwd, workspace.folder) }
      : { folder: cwd, from: 'the working directory' };
  }
}

/** --workspace <folder> on the command line, else REDLINE_WORKSPACE; undefined when neither is set. */
export function workspaceChoice(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { folder: string; from: string } | undefined {
  const at = argv.indexOf('--workspace');
  const fromArgs =
    at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('--workspace='))?.slice('--workspace='.length);
  if (fromArgs) return { folder: fromArgs, from: '--workspace' };
  const fromEnv = env[WORKSPACE_ENV];
  return fromEnv ? { folder: fromEnv, from: WORKSPACE_ENV } : undefined;
}

/** Folders as opened and as they really are, so that a symlinked checkout matches either way. */
function withRealFolders(windows: readonly DiscoveredWindow[]): DiscoveredWindow[] {
  return windows.map((window) => ({
    ...window,
    folders: [...new Set(window.folders.flatMap((folder) => [folder, realpathOr(folder)]))],
  }));
}

/** No window to try: one may appear (a reloading window is back within seconds), so it is worth a retry. */
export class NoWindowError extends IpcError {
  constructor(message: string) {
    super(ErrorCode.NotConfigured, message);
  }
}

/** What was tried besides the folders: the window named by REDLINE_IPC_PATH, the client's roots, and the repositories not believed. */
interface Tried {
  readonly envPath: string | undefined;
  readonly roots: readonly string[];
  readonly distrusted: readonly string[];
}

/** How many repositories or records not believed an error names; the rest are counted. */
const DISTRUST_NAMED = 3;

function noWindow(
  windows: readonly DiscoveredWindow[],
  place: { folder: string; from: string },
  { envPath, roots, distrusted }: Tried,
): IpcError {
  const gone = envPath ? `No VS Code window listens at ${envPath} any more (was it closed or reloaded?), and n` : 'N';
  if (windows.length === 0) {
    return new NoWindowError(
      `${gone}o VS Code window with Redline is open on this machine. Open the project in VS Code with the Redline ` +
        'extension installed, then call the tool again.',
    );
  }
  const tried =
    place.from === 'the working directory'
      ? ' Tried: the window of the terminal this server runs in (none), a window folder that contains it, a window whose ' +
        `git repository lists it as a worktree, and the client's MCP roots (${roots.length > 0 ? roots.join(', ') : 'none declared'}).` +
        notBelieved(distrusted)
      : '';
  return new NoWindowError(
    `${gone}o VS Code window has a workspace folder that contains ${place.folder} (${place.from}).${tried} Open windows:\n` +
      `${describeWindows(windows)}\n` +
      `Choose one: start the assistant inside one of these folders, set ${WORKSPACE_ENV}=<folder> in the MCP server's ` +
      'environment, or add --workspace <folder> to its command line.',
  );
}

/** Repositories and records skipped for their ownership: the user may want to fix them (or may be under attack). */
function notBelieved(distrusted: readonly string[]): string {
  if (distrusted.length === 0) return '';
  const named = distrusted.slice(0, DISTRUST_NAMED).join('; ');
  const more = distrusted.length > DISTRUST_NAMED ? `; and ${distrusted.length - DISTRUST_NAMED} more` : '';
  return ` Not believed, as git's safe.directory would not believe them: ${named}${more}. A repository counts only when you own it and no one else may write to it.`;
}
