// Shared steps of the webhook tests: save settings, make an event happen, verify what arrived.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { TestHerald } from './herald.ts';
import type { Received } from './webhook-receiver.ts';
import { HANG_CAP_MS } from './wait.ts';

export async function saveSettings(h: TestHerald, body: Record<string, unknown>, key?: string) {
  const res = await h.request('POST', '/v1/webhooks/settings', { body, key });
  assert.equal(res.status, 200, res.text);
  return res.body as { url: string; events: string[]; secret: string; updatedAt: string };
}

/** Makes a post.deleted event happen (a draft created and deleted): no platform needed. */
export async function deleteADraft(h: TestHerald, key?: string): Promise<string> {
  const created = await h.request('POST', '/v1/posts', { body: { content: 'to be deleted', isDraft: true }, key });
  assert.equal(created.status, 201, created.text);
  const deleted = await h.request('DELETE', `/v1/posts/${created.body.id}`, { key });
  assert.equal(deleted.status, 200, deleted.text);
  return created.body.id;
}

/** Checks both signatures of a received request the way a receiver would, on the raw bytes. */
export function assertSigned(r: Received, secret: string): void {
  const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(r.raw).digest('hex');
  assert.equal(r.headers['x-herald-signature'], hex, 'X-Herald-Signature is the hex HMAC of the raw body');
  const id = r.headers['webhook-id'];
  const ts = r.headers['webhook-timestamp'];
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.`).update(r.raw).digest('base64');
  assert.equal(r.headers['webhook-signature'], `v1,${expected}`, 'webhook-signature follows Standard Webhooks');
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs` (a hang, not slowness). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = HANG_CAP_MS, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The key's deliveries as GET /v1/webhooks/deliveries lists them (newest first). */
export async function listDeliveries(h: TestHerald, key?: string, query = ''): Promise<any[]> {
  const res = await h.request('GET', `/v1/webhooks/deliveries${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.deliveries as any[];
}

/** The key's newest delivery, once it has `status`. */
export async function newestDeliveryOnceIs(h: TestHerald, key: string | undefined, status: 'delivered' | 'failed'): Promise<any> {
  const list = await eventually(async () => {
    const l = await listDeliveries(h, key);
    return l[0]?.status === status ? l : undefined;
  }, HANG_CAP_MS, `the newest delivery to be ${status}`);
  return list[0];
}
