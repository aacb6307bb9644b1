// Logs for the MCP server. stdout belongs to JSON-RPC, so every event is one JSON line on stderr.

export type Log = (event: string, fields?: Record<string, unknown>) => void;

export const stderrLog: Log = (event, fields) => {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), source: 'redline-mcp', event, ...fields }) + '\n');
};
