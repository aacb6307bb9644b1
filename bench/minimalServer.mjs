// The yardstick for bench/coldStart.mjs: the smallest stdio MCP server on the SDK Redline uses
// (McpServer, one tool with a zod input schema), loaded from node_modules without bundling.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
