// Raw HTTP helpers for the YouTube emulator tests: they speak to the emulator the way any client of
// Google would, without Herald's adapter in between.
import assert from 'node:assert/strict';
import { pkceChallenge } from '../../src/lib/crypto.ts';
import { SCOPE } from '../../src/platforms/youtube/info.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { approveConsent } from '../helpers/platform.ts';

export const ALL = [SCOPE.upload, SCOPE.readonly, SCOPE.forceSsl];
export const REDIRECT = 'https://app.example.com/oauth/callback';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  root: string,
  method: string,
  path: string,
  options: { token?: string; query?: Record<string, string>; json?: unknown; bytes?: Uint8Array; contentType?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(path.startsWith('http') ? path : `${root}${path}`);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit["body"];
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json; charset=UTF-8';
  } else if (options.bytes) {
    body = options.bytes as Uint8Array<ArrayBuffer>;
    headers['content-type'] ??= options.contentType ?? 'application/octet-stream';
  } else if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function authUrl(root: string, params: Record<string, string | undefined> = {}): string {
  const url = new URL(`${root}/o/oauth2/v2/auth`);
  const all: Record<string, string | undefined> = {
    client_id: SANDBOX_APP.clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: ALL.join(' '),
    access_type: 'offline',
    prompt: 'consent',
    state: 'st',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

export interface Granted {
  access: string;
  refresh?: string;
  scope: string;
  body: any;
}

/** Consent and code exchange for a sandbox user, with PKCE. */
export async function grant(root: string, user: string, params: Record<string, string | undefined> = {}, consent: Record<string, string> = {}): Promise<Granted> {
  const verifier = `v-${user}-abcdefghijklmnopqrstuvwxyz0123456789abcdefghij`;
  const { code } = await approveConsent(authUrl(root, { code_challenge: pkceChallenge(verifier), code_challenge_method: 'S256', ...params }), { sandbox_user: user, ...consent });
  const res = await call(root, 'POST', '/token', {
    form: { code, client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, redirect_uri: REDIRECT, grant_type: 'authorization_code', code_verifier: verifier },
  });
  assert.equal(res.status, 200, res.text);
  return { access: res.body.access_token, refresh: res.body.refresh_token, scope: res.body.scope, body: res.body };
}

/** Opens an upload session; returns its URI. */
export async function openSession(root: string, token: string, size: number, metadata: unknown = { snippet: { title: 'A video', categoryId: '22' }, status: { privacyStatus: 'public' } }): Promise<string> {
  const res = await call(root, 'POST', '/upload/youtube/v3/videos', {
    token,
    query: { uploadType: 'resumable', part: 'snippet,status' },
    headers: { 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4' },
    json: metadata,
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.text, '');
  return res.headers.get('location')!;
}

/** The bytes of a tiny "MP4" (an ftyp box), padded to `size`. */
export function mp4(size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set([0, 0, 0, 0x18], 0);
  out.set(new TextEncoder().encode('ftypmp42'), 4);
  return out;
}

export function put(uri: string, token: string | undefined, bytes: Uint8Array, first: number, total: number): Promise<Answer> {
  return call('', 'PUT', uri, { token, bytes, contentType: 'video/mp4', headers: { 'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}` } });
}

export function statusQuery(uri: string, token: string | undefined, total: number): Promise<Answer> {
  return call('', 'PUT', uri, { token, headers: { 'content-range': `bytes */${total}` } });
}

/** Uploads a whole file in one PUT and returns the video resource. */
export async function uploadVideo(root: string, token: string, size = 1000, metadata?: unknown): Promise<any> {
  const uri = await openSession(root, token, size, metadata);
  const res = await put(uri, token, mp4(size), 0, size);
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export function reason(a: Answer): string | undefined {
  return a.body?.error?.errors?.[0]?.reason;
}
