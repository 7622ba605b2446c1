// Uploading library media in tests: the raw file with its type, through Herald's HTTP API.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { TestHerald } from './herald.ts';

export interface Uploaded {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function uploadRaw(h: { url: string; key: string }, bytes: Uint8Array, contentType: string, query = '', headers: Record<string, string> = {}, key = h.key): Promise<Uploaded> {
  const res = await fetch(`${h.url}/v1/media${query}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType, ...headers }, body: bytes });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Uploads and asserts 201; returns the media object. */
export async function uploadOk(h: TestHerald, bytes: Uint8Array, contentType: string, query = '', key?: string): Promise<any> {
  const res = await uploadRaw(h, bytes, contentType, query, {}, key ?? h.key);
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
