// The public media URL (no key): /media/<token>/<file name> and /media/<token>/fit/<rendition>. Served by
// every process that serves the API (role api or all), from whichever store holds the bytes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicFiles } from '../../media/public-files.ts';

const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

export function publicMediaRoutes(files: PublicFiles) {
  return async (app: FastifyInstance) => {
    const answer = async (req: FastifyRequest, reply: FastifyReply, token: string, name: string) => {
      if (!TOKEN.test(token)) return reply.code(404).send({ error: 'no media at this address', code: 'NOT_FOUND' });
      const a = await files.open(token, name, { head: req.method === 'HEAD', range: req.headers.range });
      reply.code(a.status).headers(a.headers);
      if ('error' in a) return reply.send(a.error);
      // HEAD: the headers of the GET, no body (Content-Length set above stays).
      if (!a.body) return reply.send();
      return reply.send(a.body);
    };
    const schema = { hide: true } as const;
    app.route({ method: ['GET', 'HEAD'], url: '/:token/:name', exposeHeadRoute: false, schema, handler: (req, reply) => {
      const p = req.params as { token: string; name: string };
      return answer(req, reply, p.token, p.name);
    } });
    app.route({ method: ['GET', 'HEAD'], url: '/:token/fit/:name', exposeHeadRoute: false, schema, handler: (req, reply) => {
      const p = req.params as { token: string; name: string };
      return answer(req, reply, p.token, `fit/${p.name}`);
    } });
  };
}
