// Connects accounts the way a user does: GET /v1/connect → the emulator's consent page → POST /v1/connect.
import assert from 'node:assert/strict';
import type { Platform } from '../../src/platforms/registry.ts';
import type { TestHerald } from './herald.ts';
import { approveConsent } from './platform.ts';

export const CALLBACK = 'https://app.example.com/oauth/callback';

export async function connectAccount(
  h: TestHerald,
  platform: Platform,
  consent: Record<string, string> = {},
  key?: string,
  /** For platforms on servers the user names (mastodon): the server's URL. */
  instance?: string,
): Promise<{ accountId: string; username: string; accounts: { platform: string; accountId: string; username: string }[] }> {
  const server = instance ? `&instance=${encodeURIComponent(instance)}` : '';
  const start = await h.request('GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(CALLBACK)}${server}`, { key });
  assert.equal(start.status, 200, start.text);
  const { code, state } = await approveConsent(start.body.authUrl, consent);
  assert.equal(state, start.body.state, 'the platform echoes the state');
  const done = await h.request('POST', `/v1/connect/${platform}`, { body: { code, state, redirect_url: CALLBACK }, key });
  assert.equal(done.status, 200, done.text);
  return done.body;
}
