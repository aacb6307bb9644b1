// The environment of an MCP server a test starts, as far as finding windows goes: this run's own
// folder of discovery files (jest's globalSetup, or useRuntimeDir), or none at all. Never the
// machine's usual places, where an open VS Code or another test run would be found.
import { RUNTIME_DIR_ENV } from '../../shared/environment';

/** Finds the windows this process started, and no one else's. */
export function discoveryEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['XDG_RUNTIME_DIR', RUNTIME_DIR_ENV]) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}

/** A folder that cannot exist, nor be made, even by root: /dev/null is not a directory. */
const NOWHERE = '/dev/null/redline';

/** Finds no window by discovery: only REDLINE_IPC_PATH, when given, can lead to one. */
export const NO_DISCOVERY_ENV: Readonly<Record<string, string>> = {
  XDG_RUNTIME_DIR: NOWHERE,
  TMPDIR: NOWHERE,
  [RUNTIME_DIR_ENV]: NOWHERE,
};

/** The default of a server a test starts: no discovery, unless the test's `env` says where. */
export const NO_DISCOVERY_DEFAULT: Readonly<Record<string, string>> = { [RUNTIME_DIR_ENV]: NOWHERE };
