// The kit's OAuth server: codes are bound to the client, the redirect URI and the PKCE challenge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pkceChallenge } from '../../../src/lib/crypto.ts';
import { OAuthServer } from '../../../src/sandbox/kit/oauth.ts';

function server(now = () => 1_000_000) {
  return new OAuthServer({ now, tokenPrefix: 't.', codeTtlMs: 30_000, accessTtlMs: 60_000, refreshTtlMs: null, rotateRefresh: true });
}

test('a code exchange without client_id or redirect_uri is refused, as one with wrong ones is', () => {
  const oauth = server();
  const issue = () => oauth.issueCode({ userId: 'u', clientId: 'app', redirectUri: 'https://app.example/cb', scopes: ['a'] });
  for (const input of [{ redirectUri: 'https://app.example/cb' }, { clientId: 'app' }, { clientId: 'app', redirectUri: '' }, { clientId: 'other', redirectUri: 'https://app.example/cb' }, { clientId: 'app', redirectUri: 'https://app.example/cb/' }]) {
    const r = oauth.redeemCode(issue(), input);
    assert.equal(r.ok, false, JSON.stringify(input));
  }
  assert.deepEqual(oauth.redeemCode(issue(), { clientId: 'app' }), { ok: false, error: 'invalid_request', description: 'redirect_uri is required' });
  assert.equal(oauth.redeemCode(issue(), { clientId: 'app', redirectUri: 'https://app.example/cb' }).ok, true);
});

test('PKCE: a code issued with a challenge needs the matching verifier; codes are single use and expire', () => {
  let t = 1_000_000;
  const oauth = server(() => t);
  const verifier = 'v'.repeat(43);
  const input = { clientId: 'app', redirectUri: 'https://app.example/cb' };
  const code = oauth.issueCode({ userId: 'u', ...input, scopes: [], challenge: pkceChallenge(verifier), challengeMethod: 'S256' });
  assert.equal(oauth.redeemCode(code, input).ok, false, 'no verifier');
  assert.equal(oauth.redeemCode(code, { ...input, codeVerifier: 'w'.repeat(43) }).ok, false, 'wrong verifier');
  assert.equal(oauth.redeemCode(code, { ...input, codeVerifier: verifier }).ok, true);
  assert.equal(oauth.redeemCode(code, { ...input, codeVerifier: verifier }).ok, false, 'used');
  const late = oauth.issueCode({ userId: 'u', ...input, scopes: [] });
  t += 30_000;
  assert.equal(oauth.redeemCode(late, input).ok, false, 'expired');
});
