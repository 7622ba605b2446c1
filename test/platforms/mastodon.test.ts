// The Mastodon adapter against the Mastodon emulator over real HTTP on 127.0.0.1: accounts, every media
// shape, and the edit, unpublish and first-comment capabilities.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pkceChallenge } from '../../src/lib/crypto.ts';
import { approveConsent } from '../helpers/platform.ts';
import { until } from '../helpers/wait.ts';
import { REDIRECT, VERIFIER, calls, commentRequest, connectAccount, image, made, publishRequest, startHarness, video, type Harness } from './mastodon-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

describe('accounts', () => {
  test('registerApp creates Herald\'s app on the instance with the scopes and the redirect URI', async () => {
    const r = await h.adapter.registerApp!({ serverUrl: h.root, redirectUri: 'https://herald.example/other/callback' });
    assert.ok(r.ok, r.ok ? '' : r.message);
    const app = h.emu.state.appsByClientId.get(r.clientId)!;
    assert.deepEqual([app.name, app.scopes, app.redirectUris, app.website], ['Herald', ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'], ['https://herald.example/other/callback'], 'https://github.com/herald']);
    assert.equal(app.clientSecret, r.clientSecret);
  });

  test('a URL that is not a Mastodon instance is refused with a reason', async () => {
    const r = await h.adapter.registerApp!({ serverUrl: `${h.server.url}/media`, redirectUri: REDIRECT });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.category, 'platform_unavailable');
    assert.match(!r.ok ? r.message : '', /does not look like a Mastodon instance/);
  });

  test('the consent URL is the instance\'s, with Herald\'s client id, the scopes, S256 PKCE and the state', async () => {
    const server = await h.app();
    const url = new URL(h.adapter.authorizeUrl({ state: 'abc', redirectUri: REDIRECT, codeChallenge: 'CHALLENGE', server }));
    assert.equal(`${url.origin}${url.pathname}`, `${h.root}/oauth/authorize`);
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: 'code',
      client_id: server.clientId,
      redirect_uri: REDIRECT,
      scope: 'read:accounts read:statuses write:statuses write:media',
      state: 'abc',
      code_challenge: 'CHALLENGE',
      code_challenge_method: 'S256',
    });
    assert.equal(h.adapter.info.connect, 'server_oauth');
    assert.equal(h.adapter.info.usesPkce, true);
  });

  test('connect: <id>@<domain>, @user@domain, a token that never expires, and the instance\'s limits in the meta', async () => {
    const { account } = await connectAccount(h, 'Alice');
    const id = account.meta.mastodonId as string;
    assert.match(id, /^\d{18}$/);
    assert.equal(account.accountId, `${id}@${h.domain}`);
    assert.equal(account.username, `@alice@${h.domain}`);
    assert.equal(account.displayName, 'Alice');
    assert.equal(account.avatarUrl, `${h.root}/avatars/original/missing.png`);
    assert.deepEqual(account.grant, { accessToken: account.grant.accessToken, expiresAt: null, scopes: ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'] });
    assert.equal((account.grant as { refreshToken?: string }).refreshToken, undefined);
    assert.equal(account.meta.instance, h.root);
    assert.equal(account.meta.domain, h.domain);
    assert.deepEqual(account.meta.limits, {
      maxCharacters: 500,
      maxMediaAttachments: 4,
      charactersReservedPerUrl: 23,
      imageSizeLimit: 16 * 1024 * 1024,
      videoSizeLimit: 103_809_024,
      descriptionLimit: 1500,
      supportedMimeTypes: (account.meta.limits as { supportedMimeTypes: string[] }).supportedMimeTypes,
    });
  });

  test('the domain the instance reports names the account, not the URL\'s host', async () => {
    const other = await startHarness({ domain: 'social.example', maxCharacters: 1000 });
    try {
      const { account } = await connectAccount(other, 'Bea');
      assert.equal(account.accountId, `${account.meta.mastodonId}@social.example`);
      assert.equal(account.username, '@bea@social.example');
      assert.equal((account.meta.limits as { maxCharacters: number }).maxCharacters, 1000);
    } finally {
      await other.close();
    }
  });

  test('a code used twice, or with the wrong verifier, is refused as auth_expired', async () => {
    const server = await h.app();
    const url = h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT, codeChallenge: pkceChallenge(VERIFIER), server });
    const { code } = await approveConsent(url, { sandbox_user: 'twice' });
    const wrong = await h.adapter.connect({ code, redirectUri: REDIRECT, codeVerifier: 'x'.repeat(50), server });
    assert.equal(!wrong.ok && wrong.category, 'auth_expired');
    const { code: code2 } = await approveConsent(url, { sandbox_user: 'twice' });
    assert.ok((await h.adapter.connect({ code: code2, redirectUri: REDIRECT, codeVerifier: VERIFIER, server })).ok);
    const again = await h.adapter.connect({ code: code2, redirectUri: REDIRECT, codeVerifier: VERIFIER, server });
    assert.equal(!again.ok && again.category, 'auth_expired');
    assert.equal(!again.ok && again.platformCode, 'invalid_grant');
  });

  test('health reports the granted scopes, no expiry, and the instance\'s current limits', async () => {
    const { creds } = await connectAccount(h, 'healthy');
    h.emu.settings.maxCharacters = 700;
    // Read afresh: the adapter read the instance at connect, moments ago.
    const r = await h.adapter.health({ ...creds, meta: { ...creds.meta, limits: {} } });
    h.emu.settings.maxCharacters = 500;
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.permissions, creds.scopes);
    assert.equal(r.expiresAt, null);
    assert.equal((r.meta?.limits as { maxCharacters: number }).maxCharacters, 700);
  });

  test('refresh keeps a working token; a revoked one cannot be renewed (auth_expired: reconnect)', async () => {
    const { creds } = await connectAccount(h, 'refresher');
    const kept = await h.adapter.refresh(creds);
    assert.deepEqual(kept, { ok: true, grant: { accessToken: creds.accessToken, expiresAt: null, scopes: creds.scopes } });
    assert.equal(calls(h, 'POST', /^\/oauth\/token$/) > 0, true);
    const tokenCalls = calls(h, 'POST', /^\/oauth\/token$/);
    assert.deepEqual(await h.adapter.revoke(creds), { ok: true, revoked: true });
    const refused = await h.adapter.refresh(creds);
    assert.equal(!refused.ok && refused.category, 'auth_expired');
    assert.match(!refused.ok ? refused.message : '', /revoked/);
    assert.equal(calls(h, 'POST', /^\/oauth\/token$/), tokenCalls, 'no refresh grant is ever asked for');
    const health = await h.adapter.health(creds);
    assert.equal(!health.ok && health.category, 'auth_expired');
  });

  test('every call goes to the instance through serverHttp, never the platform client', async () => {
    const seen: string[] = [];
    const watched = h.adapterWith({
      http: { request: async (req) => { seen.push(req.url); return { sent: false, error: 'not this client' }; } },
    });
    const { creds } = await connectAccount(h, 'router');
    assert.ok((await watched.health(creds)).ok);
    assert.ok((await watched.publish(publishRequest(creds, `routed ${Date.now()}`))).ok);
    assert.deepEqual(seen, []);
  });
});

describe('publishing', () => {
  test('text: one status, its id and URL, the options sent', async () => {
    const { creds } = await connectAccount(h, 'writer');
    const content = `Hello from Herald https://example.com/${'x'.repeat(100)} ${Date.now()}`;
    const req = publishRequest(creds, content, [], { visibility: 'unlisted', spoilerText: 'a warning', language: 'fr' });
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = made(h, content);
    assert.equal(entry!.id, r.platformPostId);
    assert.equal(r.platformPostUrl, `https://${h.domain}/@writer/${r.platformPostId}`);
    assert.equal(entry!.accountId, creds.accountId);
    assert.deepEqual([entry!.extra!.visibility, entry!.extra!.spoilerText, entry!.extra!.sensitive, entry!.extra!.language], ['unlisted', 'a warning', true, 'fr']);
    assert.match(String(entry!.extra!.idempotencyKey), /^herald-/);
    // The checkpoint held the key before the create, and the status after it.
    assert.ok(req.saved[0]!.pending);
    assert.deepEqual(req.saved.at(-1)!.posted, [r.platformPostId]);
  });

  test('one image with alt text: uploaded with its description, attached once', async () => {
    const { creds } = await connectAccount(h, 'photographer');
    const content = `one image ${Date.now()}`;
    const r = await h.adapter.publish(publishRequest(creds, content, [image(h, 1, 'a white pixel on white')]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = made(h, content);
    assert.deepEqual(entry!.media.map((m) => m.type), ['image']);
    assert.deepEqual(entry!.extra!.altTexts, ['a white pixel on white']);
    assert.deepEqual(entry!.extra!.mediaBytes, [125]);
  });

  test('four images, in order; a media-only post needs no text', async () => {
    const { creds } = await connectAccount(h, 'album');
    const r = await h.adapter.publish(publishRequest(creds, '', [image(h, 1, 'one'), image(h, 2), image(h, 3, 'three'), image(h, 4)]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    const entry = h.emu.ledger.get(r.platformPostId)!;
    assert.equal(entry.text, '');
    assert.deepEqual(entry.extra!.altTexts, ['one', null, 'three', null]);
  });

  test('a video: uploaded, polled while the instance processes it (206), then posted', async () => {
    const { creds } = await connectAccount(h, 'filmmaker');
    const before = calls(h, 'GET', /^\/api\/v1\/media\//);
    // The instance finishes processing only once Herald has been told 206 (however slow the machine):
    // processing outlasts any test, then the test ends it by moving the upload's ready time to now.
    h.emu.settings.processingMs = 3_600_000;
    // Herald's own patience is not what this test is about: it waits as long as the test needs.
    const patient = h.adapterWith({ timing: { pollIntervalMs: 20, maxProcessingMs: 600_000 } });
    const publishing = patient.publish(publishRequest(creds, `a video ${Date.now()}`, [video(h, 300_000)]));
    try {
      const polled = await until('Herald to poll the video while it is processing', () =>
        h.emu.calls.find((c) => c.method === 'GET' && c.path.startsWith('/api/v1/media/') && c.status === 206),
      );
      h.emu.state.media.get(decodeURIComponent(polled.path.slice('/api/v1/media/'.length)))!.readyAt = h.emu.state.now();
    } finally {
      h.emu.settings.processingMs = 30;
    }
    const r = await publishing;
    assert.ok(r.ok, r.ok ? '' : r.message);
    const entry = h.emu.ledger.get(r.platformPostId)!;
    assert.deepEqual(entry.media.map((m) => m.type), ['video']);
    assert.deepEqual(entry.extra!.mediaBytes, [300_000]);
    assert.ok(h.emu.calls.some((c) => c.method === 'GET' && c.path.startsWith('/api/v1/media/') && c.status === 206));
    assert.ok(calls(h, 'GET', /^\/api\/v1\/media\//) > before);
  });

  test('a thread: each item a reply to the one before, the options on all; the post is the first', async () => {
    const { creds } = await connectAccount(h, 'threader');
    const stamp = Date.now();
    const r = await h.adapter.publish(
      publishRequest(creds, `head ${stamp}`, [image(h, 7)], { visibility: 'private', threadItems: [{ content: `second ${stamp}` }, { content: `third ${stamp}`, mediaItems: [image(h, 8)] }] }),
    );
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [head] = made(h, `head ${stamp}`);
    const [second] = made(h, `second ${stamp}`);
    const [third] = made(h, `third ${stamp}`);
    assert.equal(head!.id, r.platformPostId);
    assert.deepEqual([second!.kind, second!.extra!.inReplyToId, second!.extra!.visibility], ['reply', head!.id, 'private']);
    assert.deepEqual([third!.extra!.inReplyToId, third!.media.length], [second!.id, 1]);
  });

  test('over the instance\'s limit now (it changed since the post was created): refused before any upload', async () => {
    const { creds } = await connectAccount(h, 'verbose');
    h.emu.settings.maxCharacters = 100;
    const fresh = h.adapterWith({});
    const uploads = calls(h, 'POST', /^\/api\/v2\/media$/);
    const r = await fresh.publish(publishRequest(creds, 'a'.repeat(150), [image(h, 9)]));
    h.emu.settings.maxCharacters = 500;
    assert.equal(!r.ok && r.category, 'content_rejected');
    assert.match(!r.ok ? r.message : '', /counts 150 characters here; its limit is 100/);
    assert.equal(calls(h, 'POST', /^\/api\/v2\/media$/), uploads);
  });

  test('media the instance cannot take: five attachments, a video with images, a file that is no image', async () => {
    const { creds } = await connectAccount(h, 'overloaded');
    const five = await h.adapter.publish(publishRequest(creds, 'five', [1, 2, 3, 4, 5].map((n) => image(h, n))));
    assert.equal(!five.ok && five.category, 'media_rejected');
    const mixed = await h.adapter.publish(publishRequest(creds, 'mixed', [video(h), image(h)]));
    assert.equal(!mixed.ok && mixed.category, 'media_rejected');
    const bogus = await h.adapter.publish(publishRequest(creds, 'bogus', [{ type: 'image', url: `${h.root}/api/v2/instance` }]));
    assert.equal(!bogus.ok && bogus.category, 'media_rejected');
    assert.match(!bogus.ok ? bogus.message : '', /File content type is invalid/);
  });
});

describe('edit', () => {
  test('the same id afterwards, its media, content warning and sensitivity kept; no window, no count', async () => {
    const { creds } = await connectAccount(h, 'editor');
    const r = await h.adapter.publish(publishRequest(creds, 'first words', [image(h, 3, 'kept alt')], { spoilerText: 'cw', language: 'de' }));
    assert.ok(r.ok);
    const edit = h.adapter.edit!;
    assert.deepEqual([edit.limits.windowMs, edit.limits.maxEdits], [null, null]);
    const e = await edit.send({ account: creds, platformPostId: r.platformPostId, content: 'better words' });
    assert.deepEqual(e, { ok: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
    const status = h.emu.state.statuses.get(r.platformPostId)!;
    assert.deepEqual([status.text, status.mediaIds.length, status.spoilerText, status.sensitive, status.language], ['better words', 1, 'cw', true, 'de']);
    assert.deepEqual(h.emu.ledger.list({ kind: 'edit' }).filter((x) => x.id === r.platformPostId).map((x) => x.extra!.previousText), ['first words']);
  });

  test('find: the source text says whether an edit was made', async () => {
    const { creds } = await connectAccount(h, 'finder');
    const r = await h.adapter.publish(publishRequest(creds, 'original'));
    assert.ok(r.ok);
    const req = { account: creds, platformPostId: r.platformPostId, content: 'changed' };
    assert.deepEqual(await h.adapter.edit!.find(req), { ok: true, found: false });
    await h.adapter.edit!.send(req);
    assert.deepEqual(await h.adapter.edit!.find(req), { ok: true, found: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
  });

  test('an edit whose answer is lost: outcome_unknown, then find says it was made', async () => {
    const { creds } = await connectAccount(h, 'lost-edit');
    const r = await h.adapter.publish(publishRequest(creds, 'before the hang'));
    assert.ok(r.ok);
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: '/api/v1/statuses/' });
    const req = { account: creds, platformPostId: r.platformPostId, content: 'after the hang' };
    const sent = await h.adapter.edit!.send(req);
    assert.equal(!sent.ok && sent.category, 'outcome_unknown');
    const found = await h.adapter.edit!.find(req);
    assert.deepEqual(found, { ok: true, found: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
  });

  test('a post that is gone cannot be edited (content_rejected, not auth_expired)', async () => {
    const { creds } = await connectAccount(h, 'too-late');
    const r = await h.adapter.publish(publishRequest(creds, 'soon gone'));
    assert.ok(r.ok);
    await h.adapter.unpublish!({ account: creds, platformPostId: r.platformPostId, checkpoint: null });
    const e = await h.adapter.edit!.send({ account: creds, platformPostId: r.platformPostId, content: 'x' });
    assert.equal(!e.ok && e.category, 'content_rejected');
  });
});

describe('unpublish', () => {
  test('deletes the thread\'s replies, newest first, then the post; again is fine', async () => {
    const { creds } = await connectAccount(h, 'regretful');
    const req = publishRequest(creds, 'to delete', [], { threadItems: [{ content: 'reply one' }, { content: 'reply two' }] });
    const r = await h.adapter.publish(req);
    assert.ok(r.ok);
    const ids = req.saved.at(-1)!.posted as string[];
    const del = await h.adapter.unpublish!({ account: creds, platformPostId: r.platformPostId, checkpoint: req.saved.at(-1)! });
    assert.deepEqual(del, { ok: true, deleted: true });
    const deletes = h.emu.ledger.list({ kind: 'delete' }).map((e) => e.id);
    assert.deepEqual(deletes.slice(-3), [ids[2], ids[1], ids[0]]);
    assert.deepEqual(await h.adapter.unpublish!({ account: creds, platformPostId: r.platformPostId, checkpoint: req.saved.at(-1)! }), { ok: true, deleted: true });
  });

  test('the first comment, a reply that would outlive the post, goes first; then the thread, newest first', async () => {
    const { creds } = await connectAccount(h, 'regretful-commenter');
    const req = publishRequest(creds, 'commented thread', [], { threadItems: [{ content: 'its reply' }] });
    const r = await h.adapter.publish(req);
    assert.ok(r.ok);
    const ids = req.saved.at(-1)!.posted as string[];
    const c = await h.adapter.comment!.send(commentRequest(creds, r.platformPostId, 'a comment under it'));
    assert.ok(c.ok);
    const del = await h.adapter.unpublish!({ account: creds, platformPostId: r.platformPostId, checkpoint: req.saved.at(-1)!, platformCommentId: c.platformCommentId });
    assert.deepEqual(del, { ok: true, deleted: true });
    assert.deepEqual(h.emu.ledger.list({ kind: 'delete' }).map((e) => e.id).slice(-3), [c.platformCommentId, ids[1], ids[0]]);
  });

  test('a delete whose answer is lost is checked by reading the status', async () => {
    const { creds } = await connectAccount(h, 'lost-delete');
    const r = await h.adapter.publish(publishRequest(creds, 'delete me'));
    assert.ok(r.ok);
    h.emu.faults.add({ kind: 'accept_then_reset', method: 'DELETE', path: '/api/v1/statuses/' });
    assert.deepEqual(await h.adapter.unpublish!({ account: creds, platformPostId: r.platformPostId, checkpoint: null }), { ok: true, deleted: true });
  });
});

describe('first comment', () => {
  test('a reply by the same account under the post, with the post\'s options; checkpointed', async () => {
    const { creds } = await connectAccount(h, 'commenter');
    const r = await h.adapter.publish(publishRequest(creds, 'post with a comment'));
    assert.ok(r.ok);
    const req = commentRequest(creds, r.platformPostId, 'the first comment');
    req.settings = { visibility: 'unlisted' };
    const c = await h.adapter.comment!.send(req);
    assert.ok(c.ok, c.ok ? '' : c.message);
    const entry = h.emu.ledger.get(c.platformCommentId)!;
    assert.deepEqual([entry.kind, entry.text, entry.accountId, entry.extra!.inReplyToId, entry.extra!.visibility], ['reply', 'the first comment', creds.accountId, r.platformPostId, 'unlisted']);
    assert.equal(req.saved.at(-1)!.statusId, c.platformCommentId);
    // Sent again with its checkpoint: the same reply, nothing new.
    const again = await h.adapter.comment!.send(commentRequest(creds, r.platformPostId, 'the first comment', req.saved.at(-1)!));
    assert.deepEqual(again, { ok: true, platformCommentId: c.platformCommentId });
    assert.equal(made(h, 'the first comment').length, 1);
  });

  test('a comment whose answer is lost: find sees it among the post\'s replies; nothing sent: found false', async () => {
    const { creds } = await connectAccount(h, 'lost-comment');
    const r = await h.adapter.publish(publishRequest(creds, 'post of a lost comment'));
    assert.ok(r.ok);
    assert.deepEqual(await h.adapter.comment!.find(commentRequest(creds, r.platformPostId, 'never sent')), { ok: true, found: false });
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
    const req = commentRequest(creds, r.platformPostId, 'a lost comment');
    const c = await h.adapter.comment!.send(req);
    assert.equal(!c.ok && c.category, 'outcome_unknown');
    const found = await h.adapter.comment!.find(commentRequest(creds, r.platformPostId, 'a lost comment', req.saved.at(-1)!));
    assert.ok(found.ok && found.found === true);
    assert.equal(made(h, 'a lost comment').length, 1);
  });

  test('a comment re-sent within the hour replays its key: one reply', async () => {
    const { creds } = await connectAccount(h, 'replayed-comment');
    const r = await h.adapter.publish(publishRequest(creds, 'post of a replayed comment'));
    assert.ok(r.ok);
    h.emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/api/v1/statuses' });
    const req = commentRequest(creds, r.platformPostId, 'replayed comment');
    assert.equal((await h.adapter.comment!.send(req)).ok, false);
    const again = await h.adapter.comment!.send(commentRequest(creds, r.platformPostId, 'replayed comment', req.saved.at(-1)!));
    assert.ok(again.ok);
    assert.equal(made(h, 'replayed comment').length, 1);
  });
});
