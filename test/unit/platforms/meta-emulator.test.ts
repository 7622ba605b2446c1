// The Meta emulator mounted the way Herald's sandbox mounts it (under a prefix) and at the root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter.ts';
import { createMetaEmulator } from '../../../src/sandbox/meta/emulator.ts';
import { mediaRoutes } from '../../../src/sandbox/media.ts';
import { adapterDeps, approveConsent } from '../../helpers/platform.ts';
import { until } from '../../helpers/wait.ts';

async function mount(prefix: string) {
  const emu = createMetaEmulator();
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(emu.plugin, { prefix });
  await app.register(mediaRoutes, { prefix: '/files' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { emu, app, origin, root: `${origin}${prefix}` };
}

for (const prefix of ['/sandbox/meta', '']) {
  test(`mounted at "${prefix || '/'}": connect and a reel (upload URL points back at the mount)`, async () => {
    const { emu, app, origin, root } = await mount(prefix);
    try {
      const fb = createFacebookAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/dialog/oauth` }));
      const redirect = 'https://app.example.com/cb';
      const { code, location } = await approveConsent(fb.authorizeUrl({ state: 's1', redirectUri: redirect }), { sandbox_pages: '1' });
      assert.equal(location.searchParams.get('state'), 's1');
      const connected = await fb.connect({ code, redirectUri: redirect });
      assert.ok(connected.ok, JSON.stringify(connected));
      const page = connected.accounts[0]!;
      const out = await fb.publish({
        account: { accountId: page.accountId, username: page.username, accessToken: page.grant.accessToken, refreshToken: page.grant.refreshToken ?? null, expiresAt: null, scopes: page.grant.scopes, meta: page.meta },
        content: 'reel under a prefix',
        media: [{ type: 'video', url: `${origin}/files/sample.mp4` }],
        settings: { contentType: 'reel' },
        checkpoint: null,
        saveCheckpoint: async () => {},
        attemptStartedAt: Date.now(),
      });
      assert.ok(out.ok, JSON.stringify(out));
      assert.ok(emu.calls.some((c) => c.path.startsWith('/video-upload/v21.0/')), 'the upload went to the emulator under its own prefix');
    } finally {
      await app.close();
    }
  });
}

test('any vNN.N version works; other segments, unknown paths and bad bodies answer in the Graph envelope', async () => {
  const { app, root } = await mount('/m');
  try {
    const v = await fetch(`${root}/v25.0/me`);
    assert.equal(((await v.json()) as { error: { code: number } }).error.code, 104, 'a versioned path that needs a token');
    const bad = await fetch(`${root}/latest/me`);
    assert.equal(((await bad.json()) as { error: { code: number } }).error.code, 2500);
    const none = await fetch(`${root}/nothing`);
    assert.equal(((await none.json()) as { error: { code: number } }).error.code, 2500);
    const json = await fetch(`${root}/v21.0/123/feed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(json.status, 400);
    assert.equal(((await json.json()) as { error: { code: number } }).error.code, 100);
  } finally {
    await app.close();
  }
});

test('errorFor renders throttles with estimated_time_to_regain_access in minutes', () => {
  const emu = createMetaEmulator();
  const page = emu.errorFor('rate_limited', { kind: 'rate_limited', path: '/1234567890/feed', resetSeconds: 150 });
  assert.equal((page.body as { error: { code: number } }).error.code, 32);
  const usage = JSON.parse(page.headers!['x-business-use-case-usage']!) as Record<string, Array<{ estimated_time_to_regain_access: number; type: string }>>;
  assert.deepEqual(usage['1234567890']?.[0]?.estimated_time_to_regain_access, 3);
  const insta = emu.errorFor('rate_limited', { kind: 'rate_limited', path: '/media_publish' });
  assert.equal((insta.body as { error: { code: number } }).error.code, 80002);
  assert.equal((emu.errorFor('expired_token', { kind: 'expired_token' }).body as { error: { error_subcode: number } }).error.error_subcode, 463);
  assert.equal(emu.errorFor('server_error', { kind: 'server_error' }).status, 500);
  assert.equal((emu.errorFor('permission', { kind: 'permission', path: '/feed' }).body as { error: { code: number } }).error.code, 200);
  assert.equal((emu.errorFor('validation', { kind: 'validation' }).body as { error: { code: number } }).error.code, 100);
});

// Strictness: what Graph refuses, the emulator refuses too (src/sandbox/README.md, "As strict as the platform").

const APP = { client_id: 'herald-sandbox', client_secret: 'herald-sandbox-secret' };
const CB = 'https://app.example.com/cb';
const ALL_SCOPES = 'pages_show_list,pages_read_engagement,pages_manage_posts,instagram_basic,instagram_content_publish';

type Json = Record<string, any>;

async function graph(root: string, method: string, path: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const url = new URL(`${root}/v21.0/${path}`);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  else body = new URLSearchParams(params);
  const res = await fetch(url, { method, body, headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

async function consentCode(root: string, user: string, scope = ALL_SCOPES): Promise<string> {
  const q = new URLSearchParams({ client_id: APP.client_id, redirect_uri: CB, state: 's', scope, response_type: 'code', sandbox_user: user, sandbox_pages: '2' });
  const res = await fetch(`${root}/dialog/oauth?${q}`, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

/** A long-lived user token and the Page tokens it gives (each Page with its linked IG account). */
async function login(root: string, user: string, scope = ALL_SCOPES) {
  const code = await consentCode(root, user, scope);
  const short = await graph(root, 'GET', 'oauth/access_token', { ...APP, redirect_uri: CB, code });
  assert.equal(short.status, 200, JSON.stringify(short.body));
  const long = await graph(root, 'GET', 'oauth/access_token', { ...APP, grant_type: 'fb_exchange_token', fb_exchange_token: short.body.access_token });
  const userToken = long.body.access_token as string;
  const pages = await graph(root, 'GET', 'me/accounts', { access_token: userToken, fields: 'id,access_token,instagram_business_account' });
  return { userToken, pages: pages.body.data as { id: string; access_token: string; instagram_business_account: { id: string } }[] };
}

test('strict: the code exchange needs the app secret and the same redirect_uri; the dialog refuses unknown permissions', async () => {
  const { app, root } = await mount('');
  try {
    const noRedirect = await graph(root, 'GET', 'oauth/access_token', { ...APP, code: await consentCode(root, 'strict1') });
    assert.equal(noRedirect.status, 400);
    assert.equal(noRedirect.body.error.error_subcode, 36008, 'a missing redirect_uri is refused like a different one');
    const otherRedirect = await graph(root, 'GET', 'oauth/access_token', { ...APP, redirect_uri: `${CB}/x`, code: await consentCode(root, 'strict1') });
    assert.equal(otherRedirect.body.error.error_subcode, 36008);
    const grantTyped = await graph(root, 'GET', 'oauth/access_token', {
      client_id: APP.client_id, client_secret: 'wrong', grant_type: 'authorization_code', redirect_uri: CB, code: await consentCode(root, 'strict1'),
    });
    assert.equal(grantTyped.body.error.code, 1, 'grant_type=authorization_code does not skip the secret');
    const bogus = await graph(root, 'GET', 'oauth/access_token', { ...APP, grant_type: 'password' });
    assert.equal(bogus.body.error.code, 100);

    const dialog = (extra: Record<string, string>) =>
      fetch(`${root}/dialog/oauth?${new URLSearchParams({ client_id: APP.client_id, redirect_uri: CB, scope: 'pages_show_list', ...extra })}`, { redirect: 'manual' });
    const unknown = await dialog({ scope: 'pages_show_list,manage_everything' });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /Invalid Scopes: manage_everything/);
    assert.equal((await dialog({ response_type: 'token' })).status, 400);
    assert.equal((await dialog({ redirect_uri: 'javascript:alert(1)' })).status, 400);
  } finally {
    await app.close();
  }
});

test('strict: Page posts over 63,206 characters, photos Facebook cannot download, and a 31st reel in 24 hours are refused', async () => {
  const { app, root, origin } = await mount('');
  try {
    const { pages } = await login(root, 'strict2');
    const page = pages[0]!;
    const long = await graph(root, 'POST', `${page.id}/feed`, { access_token: page.access_token, message: 'x'.repeat(63_207) });
    assert.equal(long.body.error?.code, 100);
    assert.equal((await graph(root, 'POST', `${page.id}/feed`, { access_token: page.access_token, message: 'x'.repeat(63_206) })).status, 200);
    for (const url of ['http://10.1.2.3/a.jpg', 'http://localhost:1/a.jpg', 'http://[::1]:1/a.jpg']) {
      const photo = await graph(root, 'POST', `${page.id}/photos`, { access_token: page.access_token, url });
      assert.equal(photo.body.error?.error_subcode, 2061006, url);
    }
    assert.equal((await graph(root, 'POST', `${page.id}/photos`, { access_token: page.access_token, url: `${origin}/files/sample.jpg` })).status, 200, 'the sandbox’s own host is in reach');
    const video = await graph(root, 'POST', `${page.id}/videos`, { access_token: page.access_token, file_url: 'http://192.168.1.2/v.mp4' });
    const status = await graph(root, 'GET', video.body.id, { access_token: page.access_token, fields: 'status' });
    await new Promise((r) => setTimeout(r, 60));
    const later = await graph(root, 'GET', video.body.id, { access_token: page.access_token, fields: 'status' });
    assert.ok(status.status === 200 && later.body.status.video_status === 'error', JSON.stringify(later.body));
    assert.match(later.body.status.processing_phase.error.message, /could not be downloaded/);

    const reel = async (extra: Record<string, string> = { video_state: 'PUBLISHED' }) => {
      const start = await graph(root, 'POST', `${page.id}/video_reels`, { access_token: page.access_token, upload_phase: 'start' });
      const up = await fetch(start.body.upload_url, { method: 'POST', headers: { authorization: `OAuth ${page.access_token}`, file_url: `${origin}/files/sample.mp4` } });
      assert.equal(up.status, 200);
      return graph(root, 'POST', `${page.id}/video_reels`, { access_token: page.access_token, upload_phase: 'finish', video_id: start.body.video_id, ...extra });
    };
    assert.equal((await reel({})).body.error?.code, 100, 'video_state is required');
    for (let i = 0; i < 30; i++) assert.equal((await reel()).status, 200, `reel ${i + 1}`);
    const over = await reel();
    assert.equal(over.body.error?.code, 4);
    const usage = JSON.parse(over.headers.get('x-business-use-case-usage')!) as Record<string, { estimated_time_to_regain_access: number }[]>;
    assert.ok(usage[page.id]![0]!.estimated_time_to_regain_access > 0);
  } finally {
    await app.close();
  }
});

test('strict: rupload wants "Authorization: OAuth", offset and file_size with bytes, and nothing after the finish', async () => {
  const { app, root } = await mount('');
  try {
    const { pages } = await login(root, 'strict3');
    const page = pages[0]!;
    const start = await graph(root, 'POST', `${page.id}/video_reels`, { access_token: page.access_token, upload_phase: 'start' });
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(20)]);
    const send = (headers: Record<string, string>, body: Buffer) =>
      fetch(start.body.upload_url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', ...headers }, body });
    const bearer = await send({ authorization: `Bearer ${page.access_token}`, offset: '0', file_size: String(mp4.length) }, mp4);
    assert.equal(((await bearer.json()) as Json).error.code, 190);
    const oauth = { authorization: `OAuth ${page.access_token}` };
    assert.equal(((await (await send(oauth, mp4)).json()) as Json).error.code, 100, 'bytes without offset and file_size');
    assert.equal((await send({ ...oauth, offset: '0', file_size: String(mp4.length) }, mp4.subarray(0, 10))).status, 200);
    assert.equal(((await (await send({ ...oauth, offset: '0', file_size: String(mp4.length) }, mp4.subarray(10))).json()) as Json).error.code, 100, 'the offset must continue the upload');
    assert.equal((await send({ ...oauth, offset: '10', file_size: String(mp4.length) }, mp4.subarray(10))).status, 200);
    const finish = await graph(root, 'POST', `${page.id}/video_reels`, { access_token: page.access_token, upload_phase: 'finish', video_id: start.body.video_id, video_state: 'PUBLISHED' });
    assert.equal(finish.status, 200, JSON.stringify(finish.body));
    assert.equal(((await (await send({ ...oauth, offset: '0', file_size: String(mp4.length) }, mp4)).json()) as Json).error.code, 100, 'the session is finished');
  } finally {
    await app.close();
  }
});

test('strict: Instagram captions over 30 hashtags or 20 mentions, images that are not JPEG or not in reach are refused', async () => {
  const { app, root, origin } = await mount('');
  try {
    const { userToken, pages } = await login(root, 'strict4');
    const igId = pages[0]!.instagram_business_account.id;
    const jpg = `${origin}/files/sample.jpg`;
    const create = (params: Record<string, string>) => graph(root, 'POST', `${igId}/media`, { access_token: userToken, ...params });
    const tags = Array.from({ length: 31 }, (_, i) => `#tag${i}`).join(' ');
    assert.equal((await create({ image_url: jpg, caption: tags })).body.error?.error_subcode, 2207010);
    const mentions = Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ');
    assert.equal((await create({ image_url: jpg, caption: mentions })).body.error?.error_subcode, 2207010);
    assert.equal((await create({ image_url: jpg, caption: `${tags.split(' ').slice(0, 30).join(' ')} mail@example.com` })).status, 200);

    const png = await create({ image_url: `${origin}/files/sample.png` });
    const away = await create({ image_url: 'http://127.0.0.1:1/a.jpg' });
    await new Promise((r) => setTimeout(r, 80));
    const status = async (id: string) => (await graph(root, 'GET', id, { access_token: userToken, fields: 'status_code,status' })).body;
    assert.equal((await status(png.body.id)).status_code, 'ERROR');
    assert.match((await status(png.body.id)).status, /2207005/);
    assert.match((await status(away.body.id)).status, /2207052/);
  } finally {
    await app.close();
  }
});

test('strict: objects are read only by the tokens Graph shows them to', async () => {
  const { app, root, origin } = await mount('');
  try {
    const alice = await login(root, 'alice-reader');
    const bob = await login(root, 'bob-reader');

    const [a1, a2] = alice.pages;
    const post = await graph(root, 'POST', `${a1!.id}/feed`, { access_token: a1!.access_token, message: 'mine' });
    const read = (token: string) => graph(root, 'GET', post.body.id, { access_token: token, fields: 'permalink_url' });
    assert.equal((await read(a1!.access_token)).status, 200, 'the Page’s own token');
    assert.equal((await read(alice.userToken)).status, 200, 'the token of the user who manages it');
    assert.equal((await read(a2!.access_token)).body.error?.error_subcode, 33, 'another Page of the same user');
    assert.equal((await read(bob.userToken)).body.error?.error_subcode, 33, 'someone else');
    // The same user consents again with fewer permissions: the new Page token cannot read, nor post.
    const narrow = await login(root, 'alice-reader', 'pages_show_list,pages_manage_posts');
    const np = narrow.pages.find((p) => p.id === a1!.id)!;
    assert.equal((await graph(root, 'GET', post.body.id, { access_token: np.access_token })).body.error?.code, 10, 'no pages_read_engagement');
    const narrowPost = await graph(root, 'POST', `${np.id}/feed`, { access_token: np.access_token, message: 'narrow' });
    assert.deepEqual([narrowPost.status, narrowPost.body.error?.code], [403, 200], 'publishing needs pages_read_engagement too');
    const igNarrow = await login(root, 'alice-reader', 'pages_show_list,pages_read_engagement,instagram_content_publish');
    const noBasic = await graph(root, 'POST', `${a1!.instagram_business_account.id}/media`, { access_token: igNarrow.userToken, image_url: `${origin}/files/sample.jpg` });
    assert.match(noBasic.body.error?.message ?? '', /instagram_basic/, 'Instagram publishing needs instagram_basic too');

    const container = await graph(root, 'POST', `${a1!.instagram_business_account.id}/media`, { access_token: alice.userToken, image_url: `${origin}/files/sample.jpg` });
    assert.equal((await graph(root, 'GET', container.body.id, { access_token: alice.userToken, fields: 'status_code' })).status, 200);
    assert.equal((await graph(root, 'GET', container.body.id, { access_token: bob.userToken, fields: 'status_code' })).body.error?.error_subcode, 33);
    assert.equal((await graph(root, 'GET', a1!.id, { access_token: bob.userToken, fields: 'name' })).status, 200, 'Pages themselves are public');
  } finally {
    await app.close();
  }
});

test('strict: debug_token answers the app token only (sandbox users are not developers of the app)', async () => {
  const { app, root } = await mount('');
  try {
    const { userToken } = await login(root, 'inspector');
    const asUser = await graph(root, 'GET', 'debug_token', { access_token: userToken, input_token: userToken });
    assert.equal(asUser.body.error?.code, 100);
    const asApp = await graph(root, 'GET', 'debug_token', { access_token: `${APP.client_id}|${APP.client_secret}`, input_token: userToken });
    assert.equal(asApp.body.data?.is_valid, true);
  } finally {
    await app.close();
  }
});

const ENGAGED = `${ALL_SCOPES},pages_manage_engagement,instagram_manage_comments`;

/** Publishes an image on the Instagram account once its container has finished processing. */
async function publishedMedia(root: string, origin: string, igId: string, token: string): Promise<string> {
  const container = await graph(root, 'POST', `${igId}/media`, { access_token: token, image_url: `${origin}/files/sample.jpg`, caption: 'kept' });
  await until('the container to finish', async () => (await graph(root, 'GET', container.body.id, { access_token: token, fields: 'status_code' })).body.status_code === 'FINISHED');
  const media = await graph(root, 'POST', `${igId}/media_publish`, { access_token: token, creation_id: container.body.id });
  assert.equal(media.status, 200, JSON.stringify(media.body));
  return media.body.id as string;
}

test('strict: Facebook comments are the Page\'s (its token, pages_manage_engagement), read back with the Page token only', async () => {
  const { app, root, origin, emu } = await mount('');
  try {
    const { userToken, pages } = await login(root, 'commenter', ENGAGED);
    const [page, other] = pages;
    const post = await graph(root, 'POST', `${page!.id}/feed`, { access_token: page!.access_token, message: 'to comment on' });
    const comment = (token: string, message = 'first!') => graph(root, 'POST', `${post.body.id}/comments`, { access_token: token, message });
    assert.equal((await comment(userToken)).body.error?.code, 200, 'a user token cannot comment as the Page');
    assert.equal((await comment(other!.access_token)).body.error?.code, 200, 'nor another Page');
    const { pages: narrow } = await login(root, 'commenter', ALL_SCOPES);
    const noEngagement = await comment(narrow[0]!.access_token);
    assert.match(noEngagement.body.error?.message ?? '', /pages_manage_engagement/);
    assert.equal((await comment(page!.access_token, '  ')).body.error?.code, 100, 'a message is required');
    assert.equal((await comment(page!.access_token, 'x'.repeat(8_001))).body.error?.code, 100);
    assert.equal((await graph(root, 'POST', '1999999/comments', { access_token: page!.access_token, message: 'x' })).body.error?.error_subcode, 33);
    const made = await comment(page!.access_token);
    assert.equal(made.status, 200);
    assert.match(made.body.id, /^\d+_\d+$/);
    assert.deepEqual(emu.ledger.get(made.body.id)?.extra, { objectId: post.body.id });

    const list = (params: Record<string, string>) => graph(root, 'GET', `${post.body.id}/comments`, params);
    const asPage = await list({ access_token: page!.access_token, fields: 'id,message,from', order: 'reverse_chronological', filter: 'stream' });
    assert.deepEqual(asPage.body.data, [{ id: made.body.id, message: 'first!', from: { id: page!.id, name: 'Commenter Page 1' } }]);
    assert.deepEqual((await list({ access_token: userToken })).body.data, [], 'New Pages Experience: a user token reads no comments');
    assert.equal((await list({ access_token: page!.access_token, order: 'sideways' })).body.error?.code, 100);

    const story = await graph(root, 'POST', `${page!.id}/photos`, { access_token: page!.access_token, url: `${origin}/files/sample.jpg`, published: 'false' });
    assert.equal(story.status, 200, JSON.stringify(story.body));
    const published = await graph(root, 'POST', `${page!.id}/photo_stories`, { access_token: page!.access_token, photo_id: story.body.id });
    assert.equal((await graph(root, 'POST', `${published.body.post_id}/comments`, { access_token: page!.access_token, message: 'x' })).body.error?.code, 100, 'stories take no comments');
  } finally {
    await app.close();
  }
});

test('strict: edits and deletes need the Page\'s own token; Instagram media keep their caption and cannot be deleted', async () => {
  const { app, root, origin, emu } = await mount('');
  try {
    const { userToken, pages } = await login(root, 'changer', ENGAGED);
    const [page, other] = pages;
    const post = await graph(root, 'POST', `${page!.id}/feed`, { access_token: page!.access_token, message: 'before' });
    const edit = (token: string, params: Record<string, string>) => graph(root, 'POST', post.body.id, { access_token: token, ...params });
    assert.equal((await edit(other!.access_token, { message: 'theirs' })).body.error?.code, 200);
    assert.equal((await edit(userToken, { message: 'as user' })).body.error?.code, 200);
    assert.equal((await edit(page!.access_token, {})).body.error?.code, 100, 'nothing to change');
    assert.equal((await edit(page!.access_token, { message: '' })).body.error?.code, 100, 'a text post cannot lose its text');
    assert.equal((await edit(page!.access_token, { message: 'x'.repeat(63_207) })).body.error?.code, 100);
    assert.deepEqual((await edit(page!.access_token, { message: 'after' })).body, { success: true });
    assert.equal((await graph(root, 'GET', post.body.id, { access_token: page!.access_token, fields: 'message' })).body.message, 'after');
    assert.deepEqual(emu.ledger.list({ kind: 'edit' }).map((e) => [e.id, e.text, e.extra?.previousText]), [[post.body.id, 'after', 'before']]);

    const video = await graph(root, 'POST', `${page!.id}/videos`, { access_token: page!.access_token, file_url: `${origin}/files/sample.mp4`, description: 'clip' });
    assert.equal((await graph(root, 'POST', video.body.id, { access_token: page!.access_token, message: 'no' })).body.error?.code, 100, 'a video takes description or name');
    assert.deepEqual((await graph(root, 'POST', video.body.id, { access_token: page!.access_token, description: 'new clip' })).body, { success: true });

    const media = { body: { id: await publishedMedia(root, origin, page!.instagram_business_account.id, userToken) } };
    assert.equal((await graph(root, 'POST', media.body.id, { access_token: userToken, caption: 'changed' })).body.error?.code, 100, 'a caption cannot be changed');
    assert.deepEqual((await graph(root, 'POST', media.body.id, { access_token: userToken, comment_enabled: 'false' })).body, { success: true });
    assert.equal((await graph(root, 'POST', `${media.body.id}/comments`, { access_token: userToken, message: 'hi' })).body.error?.code, 100, 'comments are off');
    assert.equal((await graph(root, 'DELETE', media.body.id, { access_token: userToken })).body.error?.error_subcode, 33, 'Instagram media cannot be deleted');

    assert.equal((await graph(root, 'DELETE', post.body.id, { access_token: other!.access_token })).body.error?.code, 200);
    assert.deepEqual((await graph(root, 'DELETE', post.body.id, { access_token: page!.access_token })).body, { success: true });
    assert.equal((await graph(root, 'DELETE', post.body.id, { access_token: page!.access_token })).body.error?.error_subcode, 33, 'gone');
    assert.deepEqual((await graph(root, 'DELETE', video.body.id, { access_token: page!.access_token })).body, { success: true });
    assert.equal((await graph(root, 'GET', `${page!.id}_${video.body.id}`, { access_token: page!.access_token })).body.error?.error_subcode, 33, 'its feed story went with it');
    assert.deepEqual(emu.ledger.list({ kind: 'delete' }).map((e) => e.id), [post.body.id, video.body.id]);
  } finally {
    await app.close();
  }
});

test('errorFor answers a fault on an Instagram object\'s comments as Instagram, on a Page\'s as Pages', async () => {
  const { app, root, origin, emu } = await mount('');
  try {
    const { userToken, pages } = await login(root, 'faulty', ENGAGED);
    const media = { body: { id: await publishedMedia(root, origin, pages[0]!.instagram_business_account.id, userToken) } };
    const code = (path: string) => (emu.errorFor('rate_limited', { kind: 'rate_limited', path }).body as { error: { code: number } }).error.code;
    assert.equal(code(`/${media.body.id}/comments`), 80002);
    assert.equal(code(`/${pages[0]!.id}_1/comments`), 32);
  } finally {
    await app.close();
  }
});
