// POST /mcp: Herald's MCP server over Streamable HTTP, stateless (API.md section 14). Authenticated by
// the same hook as /v1 (registered around this plugin by app.ts), so whatever it accepts, a bearer key
// today, a dashboard session later, is accepted here. Each request gets its own MCP server whose tools
// call the /v1 routes in-process through the SDK with the caller's own credentials, exactly as
// `herald mcp` calls them over the network: the same checks, the same idempotency, the same answers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createHerald } from '@herald/sdk';
import { createMcpServer } from '../../mcp/server.ts';
import { IN_PROCESS_HEADER } from '../auth.ts';
import { CSRF_HEADER } from '../session-guard.ts';

/**
 * The request headers that carry the caller's credentials (and, for a session, its CSRF context: the
 * token too, or every tool that writes would be refused as a forgery although /mcp itself passed the check).
 */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'origin', 'referer', 'sec-fetch-site', CSRF_HEADER];
const INTERNAL_ORIGIN = 'http://herald.internal';

function credentialsOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const v = req.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/**
 * A fetch that answers from this Fastify instance (light-my-request), with the caller's credentials and
 * the in-process token, so the tool's call is not counted against the rate limit after /mcp itself was.
 */
function inProcessFetch(app: FastifyInstance, credentials: Record<string, string>) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== 'authorization') headers[name] = value;
    });
    Object.assign(headers, credentials);
    const payload = request.body ? await request.text() : undefined;
    const res = await app.inject({ method: request.method as 'GET', url: `${url.pathname}${url.search}`, headers, payload });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    return new Response(empty ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };
}

export function mcpRoutes(deps: { app: FastifyInstance; version: string; inProcessToken: string }) {
  return async (scope: FastifyInstance) => {
    scope.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
      // No retries in-process: the caller's MCP client decides whether to try again.
      const herald = createHerald({ baseUrl: INTERNAL_ORIGIN, apiKey: 'forwarded', fetch: inProcessFetch(deps.app, { ...credentialsOf(req), [IN_PROCESS_HEADER]: deps.inProcessToken }), retry: { maxRetries: 0 } });
      const server = createMcpServer(herald, deps.version);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
        const answer = await transport.handleRequest(new Request(`${INTERNAL_ORIGIN}/mcp`, { method: 'POST', headers }), { parsedBody: req.body });
        reply.code(answer.status);
        answer.headers.forEach((value, name) => void reply.header(name, value));
        return reply.send(await answer.text());
      } finally {
        await server.close();
      }
    });
  };
}
