// The dashboard in real Chromium (API.md section 13), against a real Herald and the platform emulators:
//   sign in through the form                         → the navigation; the key is in no storage the page can read
//   a scheduled post, viewer in Asia/Tokyo            → in the cell of its Tokyo day at its Tokyo hour, month and week; opens its detail
//   compose, two platforms, an override, schedule    → live counts from validate; the post scheduled at the local time and zone chosen
//   upload an image with alt text                    → runs once POST /v1/media exists (another branch); skipped with a message until then
//   Connect on Accounts                              → the emulator's consent, back to the dashboard's callback, connected
//   a failed target (a fault in the X emulator)      → Retry on its detail page publishes it; the status changes in place
//   a webhook delivery                               → in the log; Redeliver sends it again
//   every page                                       → axe-core: no serious or critical violation; keyboard reaches every control
//   sign out                                         → the sign-in form; the old cookie is refused by the API
// HERALD_SCREENSHOTS=<dir> (npm run screenshots) keeps a small PNG of each page there (docs/dashboard/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectAccount } from '../helpers/connect.ts';
import { publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { browserMissing, launchChromium, newContext, seriousViolations, signInThroughForm } from '../helpers/browser.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/wait.ts';

const missing = browserMissing();
const SHOTS = process.env.HERALD_SCREENSHOTS;
const TOKYO = 'Asia/Tokyo';

let w: World;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let receiver: Receiver;
let twitter: { accountId: string; username: string };
let threads: { accountId: string; username: string };

/** YYYY-MM-DD and hour of an instant in a time zone. */
function localParts(iso: string, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), time: `${parts.hour}:${parts.minute}`, month: `${parts.year}-${parts.month}` };
}

async function shot(name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const png = await page.screenshot({ fullPage: false });
  writeFileSync(join(SHOTS, `${name}.png`), await sharp(png).png({ palette: true, quality: 70, compressionLevel: 9, effort: 10 }).toBuffer());
}

async function goTo(link: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

async function assertAccessible(what: string) {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

describe('dashboard in Chromium', { skip: missing ?? false }, () => {
  before(async () => {
    w = await startWorld();
    receiver = await startReceiver();
    twitter = await connectAccount(w.h, 'twitter');
    threads = await connectAccount(w.h, 'threads');
    browser = await launchChromium();
    context = await newContext(browser, { timezoneId: TOKYO });
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await w?.close();
  });

  test('sign in through the form: the navigation shows; the key is in no storage the page can read', async () => {
    await page.goto(`${w.h.url}/app`);
    await page.getByLabel('API key').waitFor();
    await assertAccessible('sign-in page');
    await shot('sign-in');
    await signInThroughForm(page, w.h.url, w.h.key);
    for (const name of ['Calendar', 'Compose', 'Posts', 'Media', 'Accounts', 'Webhooks', 'Queue']) {
      assert.ok(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).isVisible(), name);
    }
    const readable = await page.evaluate(() => {
      const g = globalThis as any;
      const stores = [g.localStorage, g.sessionStorage].flatMap((s) => Object.keys(s).map((k) => s.getItem(k)));
      return JSON.stringify({ cookie: g.document.cookie, stores, html: g.document.documentElement.outerHTML });
    });
    assert.ok(!readable.includes(w.h.key), 'the key is not in document.cookie, web storage or the page');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'herald_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
  });

  test('a scheduled post shows in Asia/Tokyo on its Tokyo day and hour, in month and week views, and opens its detail', async () => {
    // 20:30 UTC two days ahead is 05:30 the next day in Tokyo: the cell must be the Tokyo day, not the UTC one.
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setUTCHours(20, 30, 0, 0);
    const scheduledFor = at.toISOString();
    const created = await w.h.request('POST', '/v1/posts', {
      body: { content: 'Seen from Tokyo', scheduledFor, platforms: [{ platform: 'twitter', accountId: twitter.accountId }] },
    });
    assert.equal(created.status, 201, created.text);
    const local = localParts(scheduledFor, TOKYO);
    const today = localParts(new Date().toISOString(), TOKYO);
    assert.equal(local.time, '05:30');
    assert.notEqual(local.date, scheduledFor.slice(0, 10), 'the Tokyo day differs from the UTC day');

    await goTo('Calendar');
    if (local.month !== today.month) await page.getByRole('button', { name: 'Next' }).click();
    const cell = page.locator(`table[data-view="month"] td[data-date="${local.date}"]`);
    const item = cell.locator(`[data-post-id="${created.body.id}"]`);
    await item.waitFor();
    assert.equal(await item.locator('time').textContent(), '05:30');
    assert.match((await item.textContent()) ?? '', /scheduled/, 'marked by its status');
    await assertAccessible('calendar, month');
    await shot('calendar-month');

    await page.getByRole('button', { name: 'Week' }).click();
    await page.getByRole('button', { name: 'Today' }).click();
    // Move forward until the week holding the post is shown (at most one week ahead).
    const hourCell = page.locator(`table[data-view="week"] td[data-date="${local.date}"][data-hour="5"]`);
    if ((await hourCell.count()) === 0) await page.getByRole('button', { name: 'Next' }).click();
    await hourCell.locator(`[data-post-id="${created.body.id}"]`).waitFor();
    await assertAccessible('calendar, week');
    await shot('calendar-week');

    await hourCell.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: 'Post' }).waitFor();
    assert.ok(page.url().endsWith(`/app/posts/${created.body.id}`));
    await page.getByText('Seen from Tokyo').waitFor();
    await page.getByRole('button', { name: 'Month' }).count(); // (the calendar is gone)
  });

  test('compose to two platforms with an override, live counts from validate, and schedule in the chosen zone', async () => {
    await goTo('Compose');
    await page.getByLabel('Content', { exact: true }).fill('Hello from the dashboard');
    await page.getByRole('checkbox', { name: `${twitter.username} (twitter)` }).check();
    await page.getByRole('checkbox', { name: `${threads.username} (threads)` }).check();
    const counts = page.getByRole('region', { name: 'Checks' });
    await counts.getByText('24 / 280 characters').waitFor();
    await counts.getByText('24 / 500 characters').waitFor();

    // The per-target override, reached from the keyboard: arrow keys move along the tabs.
    await page.getByRole('tab', { name: 'All accounts' }).focus();
    await page.keyboard.press('ArrowRight');
    const xTab = page.getByRole('tab', { name: `${twitter.username} (twitter)` });
    assert.equal(await xTab.getAttribute('aria-selected'), 'true');
    await page.getByLabel(`Custom content for ${twitter.username} (twitter)`).fill('Hello X, shorter');
    await counts.getByText('16 / 280 characters').waitFor();

    assert.equal(await page.getByLabel('Time zone').inputValue(), TOKYO, 'the time zone starts at the browser’s');
    // Schedule without a time: the API's refusal is shown, and the corrected post is not taken for a replay.
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /scheduledFor|publishNow/ }).waitFor();
    const day = localParts(new Date(Date.now() + 3 * 86_400_000).toISOString(), TOKYO).date;
    await page.getByLabel('Schedule for').fill(`${day}T09:15`);
    await assertAccessible('compose');
    await shot('compose');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const outcome = page.getByRole('region', { name: /Sent/ });
    await outcome.waitFor();
    const href = await outcome.getByRole('link', { name: 'Open the post' }).getAttribute('href');
    const post = (await w.h.request('GET', `/v1/posts/${href!.split('/').pop()}`)).body;
    assert.equal(post.status, 'scheduled');
    assert.equal(post.timezone, TOKYO);
    assert.equal(post.scheduledFor, new Date(`${day}T00:15:00.000Z`).toISOString(), '09:15 in Tokyo is 00:15 UTC');
    assert.deepEqual(
      post.platforms.map((t: any) => [t.platform, t.accountId, t.status, t.customContent ?? null]),
      [
        ['twitter', twitter.accountId, 'pending', 'Hello X, shorter'],
        ['threads', threads.accountId, 'pending', null],
      ],
    );
    assert.equal(post.content, 'Hello from the dashboard');
  });

  test('upload an image with alt text (needs the media library of API.md section 10)', async (t) => {
    const doc = (await w.h.request('GET', '/openapi.json', { key: null })).body;
    if (!doc.paths['/v1/media']) {
      t.skip('POST /v1/media is not in this Herald yet (the media library is built on another branch); this test runs once it is');
      return;
    }
    const image = Buffer.from(await (await fetch(w.media('sample.jpg'))).arrayBuffer());
    await goTo('Compose');
    await page.getByLabel('Content', { exact: true }).fill('With a picture');
    await page.getByRole('checkbox', { name: `${twitter.username} (twitter)` }).check();
    await page.getByLabel('Add media').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: image });
    const alt = page.getByLabel('Alt text for photo.jpg');
    await alt.waitFor();
    await alt.fill('A test card');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const href = await page.getByRole('region', { name: /Sent/ }).getByRole('link', { name: 'Open the post' }).getAttribute('href');
    const post = (await w.h.request('GET', `/v1/posts/${href!.split('/').pop()}`)).body;
    assert.equal(post.mediaItems.length, 1);
    assert.equal(post.mediaItems[0].altText, 'A test card');
    assert.ok(String(post.mediaItems[0].mediaId ?? '').startsWith('med_') || post.mediaItems[0].url, 'the uploaded file, by id or URL');
    await goTo('Media');
    await page.locator('[data-media-id]').first().waitFor();
    await assertAccessible('media');
  });

  test('Connect runs the OAuth flow through the emulator and comes back to the dashboard, connected', async () => {
    const before = (await w.h.request('GET', '/v1/accounts?platform=twitter')).body.accounts.length;
    await goTo('Accounts');
    await page.locator('li[data-platform="twitter"]').getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL(/\/app\/accounts\/callback\/twitter$/);
    await page.getByRole('status').filter({ hasText: /Connected .*\(twitter\)/ }).waitFor();
    assert.ok(!page.url().includes('code='), 'the code is dropped from the address');
    const accounts = (await w.h.request('GET', '/v1/accounts?platform=twitter')).body.accounts;
    assert.ok(accounts.length >= before && accounts.length >= 1);
    await page.getByRole('link', { name: 'Back to accounts' }).click();
    await page.locator(`tr[data-account="twitter:${twitter.accountId}"]`).getByText('healthy').waitFor();
    await assertAccessible('accounts');
    await shot('accounts');
  });

  test('a failed target is retried from its detail page and its status changes in place', async () => {
    w.emu('twitter').faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets' });
    const failed = await publishNow(w.h, { content: 'fails once', platforms: [{ platform: 'twitter', accountId: twitter.accountId }] });
    assert.equal(failed.status, 'failed');
    await page.goto(`${w.h.url}/app/posts/${failed.id}`);
    const row = page.locator(`tr[data-target="twitter:${twitter.accountId}"]`);
    await row.getByText('failed').waitFor();
    await row.locator('.error').waitFor();
    await assertAccessible('post detail');
    await shot('post-detail');
    await page.getByRole('button', { name: 'Retry' }).click();
    await row.getByText('published', { exact: true }).waitFor();
    await row.getByRole('link', { name: 'View on twitter' }).waitFor();
    assert.equal((await w.h.request('GET', `/v1/posts/${failed.id}`)).body.status, 'published');
    for (const name of ['Edit', 'Unpublish', 'Delete']) assert.ok(await page.getByRole('button', { name }).isVisible(), name);
  });

  test('the posts list and its filters', async () => {
    await goTo('Posts');
    await page.locator('tr[data-post-id]').first().waitFor();
    await page.getByLabel('Status').selectOption('scheduled');
    await until('only scheduled posts listed', async () => {
      const statuses = await page.locator('tr[data-post-id] td:nth-child(2)').allTextContents();
      return statuses.length > 0 && statuses.every((s) => s === 'scheduled');
    });
    await assertAccessible('posts');
    await shot('posts');
  });

  test('a webhook delivery shows in the log and Redeliver sends it again', async () => {
    await goTo('Webhooks');
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'post.deleted' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    assert.match((await page.getByTestId('secret').textContent()) ?? '', /^whsec_/);

    const draft = await w.h.request('POST', '/v1/posts', { body: { content: 'to delete', isDraft: true } });
    await w.h.request('DELETE', `/v1/posts/${draft.body.id}`);
    await receiver.waitFor(1);
    const row = page.locator('tr[data-delivery-id]').filter({ hasText: 'post.deleted' }).first();
    await until('the delivery in the log', async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await row.count()) > 0 && /delivered/.test((await row.textContent()) ?? '');
    });
    await page.getByLabel('Status').selectOption('failed');
    await until('the filter leaves it out', async () => (await page.locator('tr[data-delivery-id]').count()) === 0);
    await page.getByLabel('Status').selectOption('');
    await row.waitFor();
    await assertAccessible('webhooks');
    await shot('webhooks');
    await row.getByRole('button', { name: 'Redeliver' }).click();
    const again = await receiver.waitFor(2);
    assert.equal(again[1]!.headers['x-herald-event-id'], again[0]!.headers['x-herald-event-id'], 'the same event again');
  });

  test('queue and media pages: accessible, every control reachable by keyboard', async () => {
    await goTo('Queue');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Queue saved.' }).waitFor();
    await page.getByRole('heading', { name: 'Next free slots' }).waitFor();
    await assertAccessible('queue');
    await shot('queue');
    await goTo('Media');
    await assertAccessible('media');
    await shot('media');

    // Tab from the top of the page: every link, button and field of the header is reached in order.
    // (The page may have focused something further down, such as a media item's controls: start at the
    // first control of the page, where a keyboard user lands after loading it.)
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      reached.push(await page.evaluate(() => {
        const el = (globalThis as any).document.activeElement;
        return `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim()}`;
      }));
      await page.keyboard.press('Tab');
    }
    for (const name of ['a:Skip to content', 'a:Calendar', 'a:Compose', 'a:Posts', 'a:Media', 'a:Accounts', 'a:Webhooks', 'a:Queue', 'button:Sign out']) {
      assert.ok(reached.includes(name), `${name} reached by Tab: ${reached.join(', ')}`);
    }
    await page.keyboard.press('Shift+Tab');
    if (SHOTS) {
      // The month again, now that the tests above have published, failed and scheduled posts in it.
      await goTo('Calendar');
      await page.locator('[data-post-id]').first().waitFor();
      await shot('calendar-month');
    }
  });

  test('sign out: back to the sign-in form, and the old cookie is refused', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'herald_session')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await page.getByRole('status').filter({ hasText: 'You are signed out.' }).waitFor();
    const fromPage = await page.evaluate(async () => (await fetch('/v1/posts')).status);
    assert.equal(fromPage, 401);
    const replay = await w.h.request('GET', '/v1/posts', { key: null, headers: { cookie: `${cookie.name}=${cookie.value}` } });
    assert.equal(replay.status, 401, 'the old cookie no longer opens anything');
  });
});
