// A forwarding proxy in front of a PDS, for the faults the real PDS cannot inject itself: a call that
// reaches the PDS and does its work, whose answer is then lost (the connection cut), and a call cut
// before it is forwarded at all.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';

export interface CutRule {
  /** Part of the path, e.g. 'com.atproto.repo.createRecord'. */
  path: string;
  /** 'after': forward, let the PDS finish, then cut the connection instead of answering. 'before': cut without forwarding. */
  when: 'after' | 'before';
  count: number;
}

export interface FaultProxy {
  url: string;
  cut(rule: CutRule): void;
  /** Calls forwarded (method and path), for assertions. */
  forwarded: string[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startFaultProxy(target: () => string): Promise<FaultProxy> {
  const rules: CutRule[] = [];
  const forwarded: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    const rule = rules.find((r) => r.count > 0 && path.includes(r.path));
    if (rule) rule.count -= 1;
    const body = await readBody(req);
    if (rule?.when === 'before') {
      req.socket.destroy();
      return;
    }
    const upstream = new URL(path, target());
    const headers = { ...req.headers, host: upstream.host };
    const out = httpRequest(upstream, { method: req.method, headers }, async (answer) => {
      const answerBody = await readBody(answer);
      forwarded.push(`${req.method} ${path.split('?')[0]} ${answer.statusCode}`);
      if (rule?.when === 'after') {
        // The PDS did the work; its answer never reaches the caller.
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers).end(answerBody);
    });
    out.on('error', () => req.socket.destroy());
    out.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cut: (rule) => rules.push({ ...rule }),
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
