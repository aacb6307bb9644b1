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
/** `debug` puts the MCP server's routine events (started, request, reply) on stderr too. */
export const LOG_ENV = 'REDLINE_LOG';

/**
 * Every variable above: what an assistant that starts its servers with a fixed environment must
 * be told to pass through (Codex CLI's `env_vars`).
 */
export const SERVER_ENV_NAMES = [IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV, WORKSPACE_ENV, LOG_ENV] as const;
