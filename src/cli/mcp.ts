// herald mcp: Herald's MCP server on stdio, for MCP hosts (Claude Desktop, Cursor, VS Code, …). A client
// of a running Herald: its tools call the REST API through the SDK (HERALD_URL, HERALD_API_KEY). Stdout
// is the protocol; nothing else is written there.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createHerald } from '@herald/sdk';
import { createMcpServer } from '../mcp/server.ts';
import { VERSION, heraldTarget } from './client.ts';

export async function mcpCommand(env: NodeJS.ProcessEnv): Promise<number> {
  const target = heraldTarget(env);
  if (typeof target === 'string') {
    console.error(`herald mcp: ${target}`);
    return 2;
  }
  const server = createMcpServer(createHerald(target), VERSION);
  await server.connect(new StdioServerTransport());
  return -1; // serves until the host closes stdin
}
