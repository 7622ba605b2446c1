// The signature helpers against published reference values, and the secret rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  generateSecret,
  heraldSignature,
  secretProblem,
  signDelivery,
  standardKey,
  standardSignature,
} from '../../../src/webhooks/signing.ts';

test("X-Herald-Signature matches GitHub's published X-Hub-Signature-256 example", () => {
  // docs.github.com, "Validating webhook deliveries": secret "It's a Secret to Everybody", payload
  // "Hello, World!" → sha256=757107ea…3e17. Same construction: hex HMAC-SHA256 keyed with the secret's bytes.
  assert.equal(heraldSignature("It's a Secret to Everybody", 'Hello, World!'), '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  assert.equal(heraldSignature("It's a Secret to Everybody", Buffer.from('Hello, World!')), '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  assert.notEqual(heraldSignature("It's a Secret to Everybody", 'Hello, World?'), '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
});

test("webhook-signature matches the Standard Webhooks reference library's sign example", () => {
  // standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function works".
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  assert.equal(standardSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  assert.equal(standardKey(secret).length, 24);
  assert.deepEqual(standardKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'), standardKey(secret), 'the prefix is not part of the key');
});

test('a signed delivery signs exactly the bytes it carries; one changed byte breaks both signatures', () => {
  const secret = generateSecret();
  const body = JSON.stringify({ id: 'evt_1', event: 'post.deleted', timestamp: '2026-11-22T10:00:00.000Z', data: { postId: 'post_é✓' } });
  const req = signDelivery({ secret, eventId: 'evt_1', event: 'post.deleted', body, timestampSeconds: 1795340000, userAgent: 'ua' });
  assert.equal(req.body.toString('utf8'), body);
  assert.equal(req.headers['x-herald-signature'], heraldSignature(secret, req.body));
  assert.equal(req.headers['webhook-signature'], standardSignature(secret, 'evt_1', 1795340000, req.body));
  assert.equal(req.headers['webhook-id'], 'evt_1');
  assert.equal(req.headers['x-herald-event-id'], 'evt_1');
  assert.equal(req.headers['webhook-timestamp'], '1795340000');
  const changed = Buffer.from(req.body);
  changed.writeUInt8(changed.readUInt8(10) ^ 1, 10);
  assert.notEqual(heraldSignature(secret, changed), req.headers['x-herald-signature']);
  assert.notEqual(standardSignature(secret, 'evt_1', 1795340000, changed), req.headers['webhook-signature']);
  assert.notEqual(standardSignature(secret, 'evt_1', 1795340001, req.body), req.headers['webhook-signature'], 'the timestamp is signed');
});

test('generated secrets are whsec_ + base64 of 32 random bytes', () => {
  const a = generateSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(standardKey(a).length, 32);
  assert.notEqual(a, generateSecret());
  assert.equal(secretProblem(a), null);
});

test('caller secrets: whsec_ + standard base64 of 24 to 64 bytes', () => {
  const ok = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', `whsec_${Buffer.alloc(64, 7).toString('base64')}`, `whsec_${Buffer.alloc(25, 1).toString('base64')}`];
  for (const s of ok) assert.equal(secretProblem(s), null, s);
  const bad = [
    'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'whsec_',
    `whsec_${Buffer.alloc(23, 1).toString('base64')}`,
    `whsec_${Buffer.alloc(65, 1).toString('base64')}`,
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS_',
    'whsec_MfKQ9r8G KYqrTwjUPD8ILPZIo2LaLaSw',
  ];
  for (const s of bad) assert.ok(secretProblem(s), s);
});
