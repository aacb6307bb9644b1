// The IPC contract between the extension (server) and the MCP server (client): env var names,
// wire messages, the method table with each method's params and result schemas, and error codes.
// Both sides validate every message they receive against these schemas. One module per concern
// under protocol/; this file is the one both sides import.

export { IPC_PATH_ENV, IPC_TOKEN_ENV, TIMEOUT_ENV } from './environment';
export * from './protocol/limits';
export * from './protocol/reviews';
export * from './protocol/feedback';
export * from './protocol/editor';
export * from './protocol/history';
export * from './protocol/exchange';
export * from './protocol/chatView';
export * from './protocol/methods';
export * from './protocol/events';
export * from './protocol/wire';
