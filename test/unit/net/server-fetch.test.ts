// fetch for user-named servers: a multipart body reaches the server as multipart, not as "[object FormData]".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerFetch } from '../../../src/net/server-fetch.ts';

test('a FormData body is sent as multipart/form-data with its parts', async () => {
  let seen: { type: string; body: string } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen = { type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('latin1') };
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sf = createServerFetch({ allowPrivateNetworks: true });
  try {
    const form = new FormData();
    form.set('description', 'alt text');
    form.set('file', new Blob([Buffer.from([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), 'a.jpg');
    const res = await sf.fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: form });
    assert.equal(res.status, 200);
    assert.match(seen!.type, /^multipart\/form-data; boundary=/);
    assert.match(seen!.body, /name="description"\r\n\r\nalt text/);
    assert.match(seen!.body, /name="file"; filename="a.jpg"\r\nContent-Type: image\/jpeg/);
  } finally {
    await sf.close();
    await new Promise((r) => server.close(r));
  }
});
