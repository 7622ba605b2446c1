// Unknown query parameters are refused on every /v1 route (API.md section 2), not silently ignored: a
// misspelt filter that does nothing is a bug the caller should hear about.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let h: TestHerald;
before(async () => {
  h = await startHerald();
});
after(() => h.close());

const ROUTES: [string, string][] = [
  ['GET', '/v1/posts?stauts=failed'],
  ['GET', '/v1/posts/post_00000000000000000000?expand=targets'],
  ['DELETE', '/v1/posts/post_00000000000000000000?force=true'],
  ['GET', '/v1/accounts?platfrom=twitter'],
  ['GET', '/v1/accounts/health?refresh=1'],
  ['GET', '/v1/webhooks/settings?verbose=1'],
  ['GET', '/v1/webhooks/deliveries?evnt=post.published'],
];

for (const [method, path] of ROUTES) {
  test(`${method} ${path.split('?')[0]} refuses an unknown query parameter with a 400 naming it`, async () => {
    const res = await h.request(method, path);
    const name = path.split('?')[1]!.split('=')[0]!;
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
    assert.equal(res.body.param, name);
    assert.match(res.body.error, new RegExp(`query parameter ${name} is not supported`));
  });
}

test('POST /v1/posts refuses an unknown query parameter in shape B', async () => {
  const res = await h.request('POST', '/v1/posts?dryRun=true', { body: { content: 'draft', isDraft: true } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.type, 'invalid_request_error');
  assert.equal(res.body.code, 'unknown_field');
  assert.equal(res.body.param, 'dryRun');
});

test('known parameters still work', async () => {
  assert.equal((await h.request('GET', '/v1/posts?limit=5&status=draft')).status, 200);
  assert.equal((await h.request('GET', '/v1/accounts?platform=twitter')).status, 200);
});
