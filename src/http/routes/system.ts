// Routes that need no key: liveness, readiness, metrics and the OpenAPI document.
import Type from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../observability/metrics.ts';
import { ErrorA } from '../../contract/schemas.ts';

export async function systemRoutes(app: FastifyInstance, opts: { metrics: Metrics; ready(): Promise<void> }) {
  app.get(
    '/healthz',
    { schema: { tags: ['system'], operationId: 'getHealth', summary: 'The process is up.', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        operationId: 'getReadiness',
        security: [],
        summary: 'The database is reachable.',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorA },
      },
    },
    async (req, reply) => {
      try {
        await opts.ready();
        return { status: 'ready' as const };
      } catch (err) {
        req.log.warn({ err }, 'readiness check failed');
        return reply.code(503).send({ error: 'database is not reachable', code: 'NOT_READY' });
      }
    },
  );

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    reply.type(opts.metrics.registry.contentType);
    return opts.metrics.registry.metrics();
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
