// The environment variables Redline's processes read, by name. A module of its own, with no
// imports, so that the MCP server's entry (mcp-server/src/index.ts) can use them without loading
// shared/protocol.ts and zod with it; protocol.ts and discovery.ts re-export them for everyone else.

/** The socket of the window whose terminal the MCP server runs in; VS Code puts it into its terminals. */
export const IPC_PATH_ENV = 'REDLINE_IPC_PATH';
/** The token that window accepts, beside IPC_PATH_ENV. */
export const IPC_TOKEN_ENV = 'REDLINE_IPC_TOKEN';
/** Overrides how long the MCP server waits for VS Code to answer (redline.requestTimeoutMs). */
export const TIMEOUT_ENV = 'REDLINE_TIMEOUT_MS';
/** Chooses a window by folder instead of by the working directory. */
export const WORKSPACE_ENV = 'REDLINE_WORKSPACE';
/**
 * The one folder for sockets and discovery files, instead of the usual places: both the window and
 * the MCP server then look nowhere else. For a machine whose windows must not see each other (a
 * test run beside an open VS Code, a sandbox); unset, every usual place is used.
 */
export const RUNTIME_DIR_ENV = 'REDLINE_RUNTIME_DIR';
/** `debug` puts the MCP server's routine events (started, request, reply) on stderr too. */
export const LOG_ENV = 'REDLINE_LOG';

/**
 * Every variable above: what an assistant that starts its servers with a fixed environment must
 * be told to pass through (Codex CLI's `env_vars`).
 */
export const SERVER_ENV_NAMES = [
  IPC_PATH_ENV,
  IPC_TOKEN_ENV,
  TIMEOUT_ENV,
  WORKSPACE_ENV,
  LOG_ENV,
  RUNTIME_DIR_ENV,
] as const;
