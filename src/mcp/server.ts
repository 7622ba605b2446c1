// One MCP server over the tools (tools.ts), for either transport: `herald mcp` (stdio, a client of a
// running Herald) and POST /mcp (Streamable HTTP, inside Herald). Results are the REST answer as
// structured content with the same JSON as text; a refused call is a tool error carrying the API's
// code and message (and param, status, request id).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HeraldApiError, HeraldConnectionError, type Herald } from '@herald/sdk';
import { TOOLS } from './tools.ts';

const INSTRUCTIONS =
  'Herald publishes, schedules and manages social posts. Start with list_accounts to find the accounts to post to; ' +
  'validate_post shows every problem of a post at once; create_post publishes now, schedules, queues or saves a draft, ' +
  'and calling it twice with the same arguments within 10 minutes returns the first post instead of posting twice.';

const byName = new Map(TOOLS.map((t) => [t.name, t]));
const toolList = TOOLS.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations }));

function success(answer: unknown): CallToolResult {
  const structured = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : { result: answer };
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: structured };
}

function failure(err: unknown): CallToolResult {
  if (err instanceof HeraldApiError) {
    const body: Record<string, unknown> = { ...err.toJSON() };
    return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}\n${JSON.stringify(body)}` }], structuredContent: body };
  }
  if (err instanceof HeraldConnectionError) {
    return { isError: true, content: [{ type: 'text', text: `HERALD_UNREACHABLE: ${err.message}` }], structuredContent: { error: err.message, code: 'HERALD_UNREACHABLE' } };
  }
  throw err;
}

export function createMcpServer(herald: Herald, version: string): Server {
  const server = new Server({ name: 'herald', title: 'Herald', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}; tools/list names them`);
    const args = request.params.arguments ?? {};
    try {
      return success(await tool.run(herald, args));
    } catch (err) {
      return failure(err);
    }
  });
  return server;
}
