// Whether `node mcp-server.js` was started as a command line rather than as an MCP server. Kept
// apart from cli.ts so that the entry can ask without loading the full server.

const COMMANDS = new Set(['present', 'get-review', 'export', 'status', 'help', '--help', '-h']);

/** The first argument names a command; `--workspace FOLDER` alone still means the MCP server. */
export function isCliInvocation(args: readonly string[]): boolean {
  return args.length > 0 && COMMANDS.has(args[0]);
}
