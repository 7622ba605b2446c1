// Shared set-up for end-to-end tests: the five platforms' emulators on 127.0.0.1 and a Herald pointed at
// them, plus small readers of what the emulators saw.
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import type { LedgerEntry } from '../../src/sandbox/kit/ledger.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { startHerald, type HttpResult, type StartOptions, type TestHerald } from './herald.ts';
import { HANG_CAP_MS } from './wait.ts';

export interface World {
  server: EmulatorServer;
  h: TestHerald;
  /** An emulator by its mount name (a platform descriptor's sandbox.mount). */
  emu(name: string): Emulator;
  media(file: 'sample.jpg' | 'sample.png' | 'sample.mp4'): string;
  close(): Promise<void>;
}

export async function startWorld(options: StartOptions & { emulatorList?: Emulator[]; mediaOrigins?: string[] } = {}): Promise<World> {
  // The emulators download media from the Herald under test (its public media URLs), as platforms do, and
  // from any other origin the test names (an S3 endpoint serving presigned URLs).
  const mediaOrigins: string[] = [...(options.mediaOrigins ?? [])];
  const emulators = options.emulatorList ?? createEmulators({ processingMs: 30, mediaOrigins: () => mediaOrigins });
  const server = await startEmulatorServer(emulators);
  const h = await startHerald({ emulators: server, ...options });
  mediaOrigins.push(new URL(h.url).origin);
  return {
    server,
    h,
    emu: (name) => emulators.find((e) => e.name === name)!,
    media: (file) => `${server.mediaUrl}/${file}`,
    async close() {
      await h.close();
      await server.close();
    },
  };
}

/** Creates a publishNow post and returns the answer, asserting it was created. */
export async function publishNow(h: TestHerald, body: Record<string, unknown>, key?: string) {
  const res = await h.request('POST', '/v1/posts', { body: { publishNow: true, ...body }, key });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export function posted(emu: Emulator, filter: { accountId?: string; kind?: string; text?: string } = {}): LedgerEntry[] {
  return emu.ledger.list({ accountId: filter.accountId, kind: filter.kind }).filter((e) => filter.text === undefined || e.text === filter.text);
}

export function calls(emu: Emulator, method: string, pathPart: string): number {
  return emu.calls.filter((c) => c.method === method && c.path.includes(pathPart)).length;
}

/** Polls a post until it is final (for work that finishes in the background); the cap only catches a hang. */
export async function waitFinal(h: TestHerald, postId: string, timeoutMs = HANG_CAP_MS, key?: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.request('GET', `/v1/posts/${postId}`, { key });
    if (['published', 'partial', 'failed'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`post ${postId} not final: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Polls until every one of the posts is final, reading the list (one request per page a round) rather
 * than each post, so that many posts can be awaited within the API's rate limit. Returns them in order.
 * The cap only catches a hang.
 */
export async function waitAllFinal(h: TestHerald, postIds: string[], timeoutMs = 2 * HANG_CAP_MS, key?: string) {
  const deadline = Date.now() + timeoutMs;
  const wanted = new Set(postIds);
  for (;;) {
    const seen = new Map<string, any>();
    let cursor: string | null = null;
    do {
      const res: HttpResult = await h.request('GET', `/v1/posts?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
      assert.equal(res.status, 200, res.text);
      for (const p of res.body.posts) if (wanted.has(p.id)) seen.set(p.id, p);
      cursor = res.body.cursor;
    } while (cursor);
    const open = postIds.filter((id) => !['published', 'partial', 'failed'].includes(seen.get(id)?.status));
    if (open.length === 0) return postIds.map((id) => seen.get(id));
    if (Date.now() > deadline) throw new Error(`${open.length} posts not final: ${JSON.stringify(open.slice(0, 3).map((id) => seen.get(id) ?? id))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
