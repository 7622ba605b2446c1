// The LinkedIn adapter against the LinkedIn emulator over real HTTP on 127.0.0.1: accounts (the member
// and their Pages), every media shape, edit, unpublish and the first comment. Faults: linkedin-faults.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LINKEDIN_SCOPES, LINKEDIN_SELF_SERVE_SCOPES } from '../../src/platforms/linkedin/info.ts';
import { approveConsent } from '../helpers/platform.ts';
import { calls, commentRequest, connect, image, mp4, pdf, png, publishRequest, REDIRECT, retryOf, startHarness, type Harness } from './linkedin-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const posts = (accountId: string) => h.emu.ledger.list({ accountId, kind: 'post' });

describe('accounts', () => {
  test('the consent URL: client_id, code, redirect, state, the scopes space separated, no PKCE', () => {
    const url = new URL(h.adapter.authorizeUrl({ state: 'abc', redirectUri: REDIRECT }));
    assert.equal(`${url.origin}${url.pathname}`, `${h.root}/oauth/v2/authorization`);
    assert.equal(url.searchParams.get('client_id'), h.deps.app.clientId);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
    assert.equal(url.searchParams.get('state'), 'abc');
    assert.equal(url.searchParams.get('scope'), LINKEDIN_SCOPES.join(' '));
    assert.ok(url.search.includes(`scope=${LINKEDIN_SCOPES.join('%20')}`), 'spaces as %20');
    assert.equal(url.searchParams.get('code_challenge'), null);
    assert.equal(h.adapter.info.usesPkce, false);
  });

  test('one grant connects the member and every Page they administer, by URN', async () => {
    const started = Date.now();
    const { accounts } = await connect(h, 'Ada Lovelace', { sandbox_pages: '2' });
    assert.equal(accounts.length, 3);
    const [member, ...pages] = accounts;
    assert.match(member!.accountId, /^urn:li:person:[\w-]{10}$/);
    assert.equal(member!.username, 'ada-lovelace');
    assert.equal(member!.displayName, 'Ada Lovelace');
    assert.match(member!.avatarUrl ?? '', /\/linkedin\/sandbox-media\/avatar\//);
    assert.deepEqual(member!.meta, { kind: 'member', memberUrn: member!.accountId });
    for (const page of pages) {
      assert.match(page.accountId, /^urn:li:organization:\d+$/);
      assert.match(page.username, /^ada-lovelace-page-\d$/);
      assert.match(page.displayName ?? '', /^Ada Page \d$/);
      assert.deepEqual(page.meta, { kind: 'organization', memberUrn: member!.accountId, role: 'ADMINISTRATOR' });
      assert.equal(page.grant.accessToken, member!.grant.accessToken, 'one grant');
    }
    assert.deepEqual(member!.grant.scopes, LINKEDIN_SCOPES);
    assert.ok(Math.abs(member!.grant.expiresAt! - (started + 60 * 86400_000)) < 5000);
    assert.equal(member!.grant.refreshToken, undefined, 'no refresh token without programmatic refresh');
    assert.equal(h.adapter.info.grantKey?.(pages[0]!.meta), member!.accountId);
  });

  test('Pages where the member only analyses are not connected', async () => {
    const { accounts } = await connect(h, 'analyst', { sandbox_page_role: 'ANALYST' });
    assert.deepEqual(accounts.map((a) => a.meta.kind), ['member']);
  });

  test('a self-serve app names its scopes in the authorize URL: member only, identity from userinfo', async () => {
    const s = await startHarness({ product: 'self_serve' });
    try {
      const auth = `${s.root}/oauth/v2/authorization?scope=${LINKEDIN_SELF_SERVE_SCOPES.join('%20')}`;
      const adapter = s.adapterWith({ app: { ...s.deps.app, authUrl: auth } });
      assert.equal(new URL(adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT })).searchParams.get('scope'), LINKEDIN_SELF_SERVE_SCOPES.join(' '));
      const { accounts, member } = await connect({ adapter }, 'Grace Hopper');
      assert.equal(accounts.length, 1);
      assert.equal(member.username, 'Grace Hopper', 'no vanity name without r_basicprofile');
      const r = await adapter.publish(publishRequest(member, 'from a self-serve app'));
      assert.ok(r.ok, r.ok ? '' : r.message);
    } finally {
      await s.close();
    }
  });

  test('a code used twice is auth_expired, with LinkedIn\'s words', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'twice' });
    assert.ok((await h.adapter.connect({ code, redirectUri: REDIRECT })).ok);
    const again = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!again.ok && again.category, 'auth_expired');
    assert.match(!again.ok ? again.message : '', /Unable to retrieve access token/);
  });

  test('health reads the token\'s status, scopes and expiry; a Page also its role', async () => {
    const { member, pages } = await connect(h, 'healthy');
    const m = await h.adapter.health(member);
    assert.ok(m.ok);
    assert.deepEqual(m.permissions, LINKEDIN_SCOPES);
    assert.ok(Math.abs(m.expiresAt! - member.expiresAt!) < 2000);
    const p = await h.adapter.health(pages[0]!);
    assert.ok(p.ok);
    assert.deepEqual(p.meta, { role: 'ADMINISTRATOR' });
    const elsewhere = await h.adapter.health({ ...pages[0]!, accountId: 'urn:li:organization:1', username: 'Other Page' });
    assert.equal(!elsewhere.ok && elsewhere.category, 'permission_missing');
  });

  test('without a refresh token: a live token stays in use, a dead one needs reconnecting', async () => {
    const { member } = await connect(h, 'no-refresh');
    const live = await h.adapter.refresh(member);
    assert.equal(!live.ok && live.category, 'platform_unavailable');
    assert.equal(!live.ok && live.platformCode, 'NO_REFRESH_TOKEN');
    assert.match(!live.ok ? live.message : '', /connect the account again before then/);
    h.emu.oauth.expireAccessTokens();
    const dead = await h.adapter.refresh(member);
    assert.equal(!dead.ok && dead.category, 'auth_expired');
    const lapsed = await h.adapter.refresh({ ...member, expiresAt: Date.now() - 1 });
    assert.equal(!lapsed.ok && lapsed.category, 'auth_expired');
  });

  test('with programmatic refresh: a new access token, the same refresh token and its own clock', async () => {
    const p = await startHarness({ programmaticRefresh: true });
    try {
      const { member, accounts } = await connect(p, 'partner');
      assert.ok(member.refreshToken);
      const refreshExpiresAt = accounts[0]!.grant.refreshExpiresAt!;
      assert.ok(Math.abs(refreshExpiresAt - (Date.now() + 365 * 86400_000)) < 5000);
      p.emu.oauth.expireAccessTokens();
      const r = await p.adapter.refresh(member);
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.notEqual(r.grant.accessToken, member.accessToken);
      assert.equal(r.grant.refreshToken, member.refreshToken);
      assert.ok(r.grant.refreshExpiresAt! <= refreshExpiresAt + 1000, 'refreshing does not extend the refresh token');
      assert.ok((await p.adapter.health({ ...member, accessToken: r.grant.accessToken })).ok);
    } finally {
      await p.close();
    }
  });

  test('revoke ends the grant for the member and their Pages', async () => {
    const { member, pages } = await connect(h, 'leaver');
    assert.deepEqual(await h.adapter.revoke(pages[0]!), { ok: true, revoked: true });
    const m = await h.adapter.health(member);
    assert.equal(!m.ok && m.category, 'auth_expired');
    assert.match(!m.ok ? m.message : '', /revoked/);
  });
});

describe('publishing', () => {
  test('text: reserved characters arrive as written, hashtags stay hashtags', async () => {
    const { member } = await connect(h, 'writer');
    const text = 'Launch day (beta) [v2] {x} <y> @team *bold* _u_ ~s~ | a\\b #Herald, issue # 5';
    const r = await h.adapter.publish(publishRequest(member, text, [], { visibility: 'CONNECTIONS' }));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(r.platformPostId, /^urn:li:share:\d{19}$/);
    assert.equal(r.platformPostUrl, `https://www.linkedin.com/feed/update/${r.platformPostId}`);
    const [entry] = posts(member.accountId);
    assert.equal(entry?.id, r.platformPostId);
    assert.equal(entry?.text, text);
    assert.equal(entry?.extra?.truncated, false);
    assert.deepEqual(entry?.extra?.hashtags, ['Herald']);
    assert.equal(entry?.extra?.visibility, 'CONNECTIONS');
  });

  test('one image with alt text, as the member; the media URN is checkpointed before the post', async () => {
    const { member } = await connect(h, 'one-image');
    const req = publishRequest(member, 'a picture', [image(h, 1, 'A white dot')]);
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = posts(member.accountId);
    assert.equal(entry?.media.length, 1);
    assert.equal(entry?.media[0]?.type, 'image');
    assert.deepEqual(entry?.extra?.altTexts, ['A white dot']);
    assert.equal(req.saved.length, 2, 'after the upload, and before the post');
    assert.equal((req.saved[0]!.media as { urn: string }[])[0]!.urn, entry?.media[0]?.url);
    assert.equal(typeof req.saved[1]!.createSentAt, 'number');
  });

  test('twenty images as a Page: multiImage, alt texts in order', async () => {
    const { pages } = await connect(h, 'gallery');
    const page = pages[0]!;
    const media = Array.from({ length: 20 }, (_, i) => image(h, i, `picture ${i}`));
    const r = await h.adapter.publish(publishRequest(page, 'twenty', media));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(r.platformPostId, /^urn:li:ugcPost:/);
    const [entry] = posts(page.accountId);
    assert.equal(entry?.media.length, 20);
    assert.deepEqual(entry?.extra?.altTexts, media.map((m) => m.altText));
  });

  test('a video in parts: each part its byte range, ETags, finalize, AVAILABLE, then the post', async () => {
    const { member } = await connect(h, 'film');
    const file = mp4(12, 300_000);
    const before = calls(h, 'PUT', '/dms-uploads/video/');
    const r = await h.adapter.publish(publishRequest(member, 'watch this', [{ type: 'video', url: h.files.put('film.mp4', file, 'video/mp4') }]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(calls(h, 'PUT', '/dms-uploads/video/') - before, 5, '300,000 bytes in 64 KiB parts');
    const [entry] = posts(member.accountId);
    assert.equal(entry?.media[0]?.type, 'video');
    assert.deepEqual(entry?.extra?.mediaBytes, [300_000]);
  });

  test('a PDF document with its title', async () => {
    const { member } = await connect(h, 'deck');
    const url = h.files.put('q3-report.pdf', pdf(4), 'application/pdf');
    const r = await h.adapter.publish(publishRequest(member, 'our quarter', [{ type: 'document', url }], { documentTitle: 'Q3 report' }));
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = posts(member.accountId);
    assert.equal(entry?.media[0]?.type, 'document');
    assert.equal(entry?.extra?.title, 'Q3 report');
    const untitled = await h.adapter.publish(publishRequest(member, 'untitled', [{ type: 'document', url }]));
    assert.ok(untitled.ok);
    assert.equal(posts(member.accountId)[1]?.extra?.title, 'q3-report.pdf');
  });

  test('files LinkedIn would refuse are refused before anything is uploaded', async () => {
    const { member } = await connect(h, 'picky');
    const inits = () => calls(h, 'POST', 'initializeUpload');
    const before = inits();
    const cases = [
      [{ type: 'image' as const, url: h.files.put('not-image.jpg', pdf(1)) }, /not a JPEG, PNG or GIF/],
      [{ type: 'image' as const, url: h.files.put('huge.png', png(7000, 7000)) }, /7000×7000 pixels/],
      [{ type: 'video' as const, url: h.files.put('short.mp4', mp4(2, 100_000)) }, /lasts 2 s/],
      [{ type: 'document' as const, url: h.files.put('deck.docx', Buffer.from('PK\x03\x04')) }, /not a PDF/],
    ] as const;
    for (const [item, message] of cases) {
      const r = await h.adapter.publish(publishRequest(member, 'refused', [item]));
      assert.equal(!r.ok && r.category, 'media_rejected');
      assert.match(!r.ok ? r.message : '', message);
    }
    const mixed = await h.adapter.publish(publishRequest(member, 'mixed', [image(h), { type: 'video', url: 'https://x/v.mp4' }]));
    assert.equal(!mixed.ok && mixed.category, 'content_rejected');
    assert.equal(inits(), before);
    assert.equal(posts(member.accountId).length, 0);
  });

  test('a Page cannot post for CONNECTIONS', async () => {
    const { pages } = await connect(h, 'page-visibility');
    const r = await h.adapter.publish(publishRequest(pages[0]!, 'hi', [], { visibility: 'CONNECTIONS' }));
    assert.equal(!r.ok && r.category, 'content_rejected');
  });

  test('a retry reuses media an earlier attempt uploaded', async () => {
    const { member } = await connect(h, 'reuser');
    h.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/rest/posts' });
    const req = publishRequest(member, 'second time lucky', [image(h, 1), image(h, 2)]);
    const first = await h.adapter.publish(req);
    assert.equal(!first.ok && first.category, 'platform_unavailable');
    const inits = calls(h, 'POST', '/rest/images');
    const again = await h.adapter.publish(retryOf(req));
    assert.ok(again.ok, again.ok ? '' : again.message);
    assert.equal(calls(h, 'POST', '/rest/images'), inits, 'no new upload');
    assert.equal(posts(member.accountId).length, 1);
  });

  test('an old post with the same text is LinkedIn\'s duplicate refusal, not this target\'s post', async () => {
    const { member } = await connect(h, 'repeater');
    assert.ok((await h.adapter.publish(publishRequest(member, 'every Monday'))).ok);
    const r = await h.adapter.publish(publishRequest(member, 'every Monday'));
    assert.equal(!r.ok && r.category, 'content_rejected');
    assert.equal(!r.ok && r.platformCode, 'DUPLICATE_POST');
    assert.match(!r.ok ? r.message : '', /names urn:li:share:\d+ as the earlier post/);
  });
});

describe('edit, unpublish, first comment', () => {
  test('an edit keeps the URN; for a member it cannot read, find makes sure by setting the text again', async () => {
    const { member } = await connect(h, 'editor');
    const r = await h.adapter.publish(publishRequest(member, 'frist post'));
    assert.ok(r.ok);
    const edited = await h.adapter.edit!.send({ account: member, platformPostId: r.platformPostId, content: 'first post (fixed)' });
    assert.deepEqual(edited, { ok: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
    const edits = h.emu.ledger.list({ kind: 'edit' }).filter((x) => x.id === r.platformPostId);
    assert.deepEqual(edits.map((x) => x.text), ['first post (fixed)']);
    const found = await h.adapter.edit!.find({ account: member, platformPostId: r.platformPostId, content: 'first post (fixed)' });
    assert.equal(found.ok && found.found, true);
    assert.deepEqual(h.adapter.edit!.limits, { windowMs: null, maxEdits: null });
    assert.equal(h.adapter.edit!.validate('x'.repeat(3001), { meta: {} }).length, 1);
  });

  test('for a Page, find reads the post', async () => {
    const { pages } = await connect(h, 'page-editor');
    const r = await h.adapter.publish(publishRequest(pages[0]!, 'page text'));
    assert.ok(r.ok);
    const req = { account: pages[0]!, platformPostId: r.platformPostId, content: 'page text, edited' };
    assert.deepEqual(await h.adapter.edit!.find(req), { ok: true, found: false });
    assert.ok((await h.adapter.edit!.send(req)).ok);
    const edits = () => h.emu.ledger.list({ kind: 'edit' }).filter((x) => x.id === r.platformPostId).length;
    assert.equal((await h.adapter.edit!.find(req)).ok, true);
    assert.equal(edits(), 1, 'reading, not re-sending');
  });

  test('unpublish deletes; a second time is fine', async () => {
    const { member } = await connect(h, 'regrets');
    const r = await h.adapter.publish(publishRequest(member, 'oops'));
    assert.ok(r.ok);
    assert.deepEqual(await h.adapter.unpublish!({ account: member, platformPostId: r.platformPostId, checkpoint: null }), { ok: true, deleted: true });
    assert.deepEqual(await h.adapter.unpublish!({ account: member, platformPostId: r.platformPostId, checkpoint: null }), { ok: true, deleted: true });
    assert.equal(h.emu.ledger.list({ kind: 'delete' }).filter((x) => x.id === r.platformPostId).length, 1);
  });

  test('the first comment, as plain text by the post\'s author', async () => {
    const { pages } = await connect(h, 'commenter');
    const page = pages[0]!;
    const r = await h.adapter.publish(publishRequest(page, 'news'));
    assert.ok(r.ok);
    const req = commentRequest(page, r.platformPostId, 'More at https://example.com (link)');
    const c = await h.adapter.comment!.send(req);
    assert.ok(c.ok, c.ok ? '' : c.message);
    assert.match(c.platformCommentId, /^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    const entry = h.emu.ledger.get(c.platformCommentId);
    assert.equal(entry?.text, 'More at https://example.com (link)');
    assert.equal(entry?.accountId, page.accountId);
    assert.equal(typeof req.saved[0]!.sentAt, 'number', 'checkpointed before sending');
    const found = await h.adapter.comment!.find(req);
    assert.deepEqual(found, { ok: true, found: true, platformCommentId: c.platformCommentId });
  });
});
