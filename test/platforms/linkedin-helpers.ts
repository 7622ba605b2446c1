// Shared set-up for the LinkedIn adapter tests: an emulator on 127.0.0.1 with small video parts, a file
// server with generated media (linkedin-files.ts), an adapter pointed at both, and helpers to connect
// sandbox members and build requests.
import assert from 'node:assert/strict';
import { createLinkedInAdapter } from '../../src/platforms/linkedin/adapter.ts';
import { DEFAULT_API_VERSION } from '../../src/platforms/linkedin/info.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, ConnectedAccount, MediaItem, PlatformAdapter } from '../../src/platforms/types.ts';
import { createLinkedInEmulator, type LinkedInEmulator, type LinkedInEmulatorOptions } from '../../src/sandbox/linkedin/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent, credentialsOf, retryRequest, testCommentRequest, testPublishRequest, type TestComment, type TestRequest } from '../helpers/platform.ts';
import { startFileServer, type FileServer } from './linkedin-files.ts';

export { mp4, pdf, png } from './linkedin-files.ts';

export const REDIRECT = 'https://herald.example/v1/connect/linkedin/callback';
/** Video parts scaled down from LinkedIn's 4 MiB so multi-part uploads stay small. */
export const PART_BYTES = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Harness

export interface Harness {
  server: EmulatorServer;
  files: FileServer;
  emu: LinkedInEmulator;
  root: string;
  deps: AdapterDeps;
  adapter: PlatformAdapter;
  adapterWith(deps: Partial<AdapterDeps>): PlatformAdapter;
  close(): Promise<void>;
}

export async function startHarness(options: LinkedInEmulatorOptions = {}): Promise<Harness> {
  const emu = createLinkedInEmulator({ processingMs: 30, partBytes: PART_BYTES, ...options });
  const server = await startEmulatorServer([emu]);
  const files = await startFileServer();
  const root = server.rootOf('linkedin');
  const deps = adapterDeps(
    { apiUrl: root, authUrl: `${root}/oauth/v2/authorization`, tokenUrl: root, apiVersion: DEFAULT_API_VERSION },
    { http: createPlatformHttp({ timeoutMs: 800 }) },
  );
  const adapterWith = (over: Partial<AdapterDeps>) => createLinkedInAdapter({ ...deps, ...over });
  return {
    server,
    files,
    emu,
    root,
    deps,
    adapter: adapterWith({}),
    adapterWith,
    async close() {
      await files.close();
      await server.close();
    },
  };
}

export const credentials = credentialsOf;

export interface Connected {
  accounts: ConnectedAccount[];
  member: AccountCredentials;
  pages: AccountCredentials[];
}

export async function connect(h: Pick<Harness, 'adapter'>, user: string, extra: Record<string, string> = {}): Promise<Connected> {
  const authUrl = h.adapter.authorizeUrl({ state: `state-${user}`, redirectUri: REDIRECT });
  const { code, state } = await approveConsent(authUrl, { sandbox_user: user, ...extra });
  assert.equal(state, `state-${user}`);
  const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(r.ok, r.ok ? '' : r.message);
  const creds = r.accounts.map(credentials);
  return { accounts: r.accounts, member: creds[0]!, pages: creds.slice(1) };
}

export type { TestRequest };

export function publishRequest(account: AccountCredentials, content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): TestRequest {
  return testPublishRequest({ account, content, media, settings });
}

/** The same target again, carrying what the earlier attempt saved. */
export function retryOf(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  return retryRequest(req, account);
}

export type { TestComment };

export function commentRequest(account: AccountCredentials, platformPostId: string, content: string): TestComment {
  return testCommentRequest({ account, platformPostId, content });
}

export function image(h: Harness, n = 0, altText?: string): MediaItem {
  return { type: 'image', url: `${h.files.url}/sample.jpg?n=${n}`, ...(altText ? { altText } : {}) };
}

export function calls(h: Harness, method: string, pathPart: string): number {
  return h.emu.calls.filter((c) => c.method === method && c.path.includes(pathPart)).length;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
