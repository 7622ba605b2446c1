// One post to every registered platform at once, through the API, each exactly once (the emulators'
// ledgers are the proof). A platform added to the registry without a recipe here fails the first test,
// so the fan-out always covers all of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PLATFORMS, descriptorOf, type Platform } from '../../src/platforms/registry.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';

let w: World;

/** How each platform joins the fan-out: what to connect with and what its target needs. */
interface Recipe {
  consent?: Record<string, string>;
  /** For platforms on servers the user names: the emulator root to connect on. */
  instance?: boolean;
  /** For platforms that connect with an app password: the handle to sign in as (the emulator makes it). */
  handle?: string;
  /** The target's platformSpecificData, given the connected account and its emulator. */
  settings?(accountId: string, emu: Emulator): Record<string, unknown>;
  /** The ledger entries of this post (some platforms keep the text elsewhere than `text`). */
  entries?(emu: Emulator, content: string, accountId: string): unknown[];
}

const RECIPES: Record<string, Recipe> = {
  instagram: { consent: { sandbox_pages: '1', sandbox_user: 'fanout-ig' } },
  facebook: { consent: { sandbox_pages: '1', sandbox_user: 'fanout-fb' } },
  threads: {},
  tiktok: {},
  twitter: {},
  linkedin: {},
  youtube: { settings: () => ({ title: 'Everywhere at once', madeForKids: false }) },
  pinterest: {
    settings: (accountId, emu) => ({ boardId: (emu as any).store.users.get(accountId).boards[0].id, title: 'Everywhere' }),
  },
  mastodon: { instance: true },
  bluesky: { handle: 'fanout.bsky.test' },
};

const connected = new Map<Platform, string>();

before(async () => {
  w = await startWorld();
});
after(() => w?.close());

test('every registered platform has a fan-out recipe', () => {
  assert.deepEqual(PLATFORMS.filter((p) => !RECIPES[p]), [], 'add a recipe for each new platform');
});

test('one post, every platform at once: each publishes exactly once', async () => {
  for (const p of PLATFORMS) {
    const recipe = RECIPES[p]!;
    const root = w.server.rootOf(descriptorOf(p).sandbox.mount);
    if (recipe.handle) {
      const res = await w.h.request('POST', `/v1/connect/${p}`, { body: { identifier: recipe.handle, appPassword: 'abcd-efgh-ijkl-mnop', service: root } });
      assert.equal(res.status, 200, res.text);
      connected.set(p, res.body.accountId);
      continue;
    }
    connected.set(p, (await connectAccount(w.h, p, recipe.consent ?? { sandbox_user: `fanout-${p}` }, undefined, recipe.instance ? root : undefined)).accountId);
  }
  const content = `everywhere at once ${Date.now()}`;
  const emuOf = (p: Platform) => w.emu(descriptorOf(p).sandbox.mount);
  const res = await w.h.request('POST', '/v1/posts', {
    body: {
      content,
      publishNow: true,
      // LinkedIn refuses videos under 75 KB: the sample is padded past it.
      mediaItems: [{ type: 'video', url: `${w.media('sample.mp4')}?bytes=100000` }],
      tiktokSettings: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
      platforms: PLATFORMS.map((p) => {
        const accountId = connected.get(p)!;
        const settings = RECIPES[p]!.settings?.(accountId, emuOf(p));
        return { platform: p, accountId, ...(settings ? { platformSpecificData: settings } : {}) };
      }),
    },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.status, 'published', JSON.stringify(res.body.platforms, null, 1));
  for (const t of res.body.platforms) {
    assert.equal(t.status, 'published', `${t.platform}: ${t.error}`);
    assert.equal(t.attempts, 1, t.platform);
    const ledger = emuOf(t.platform).ledger.list({ accountId: t.accountId });
    const mine = ledger.filter((e) => e.id === t.platformPostId || e.text === content || (e.text ?? '').includes(content));
    assert.ok(mine.length >= 1, `${t.platform}: the post is in the ledger`);
    const distinct = new Set(mine.filter((e) => e.kind !== 'comment' && e.kind !== 'edit' && e.kind !== 'delete').map((e) => e.id));
    assert.equal(distinct.size, 1, `${t.platform}: exactly one post (${[...distinct].join(', ')})`);
  }
});
