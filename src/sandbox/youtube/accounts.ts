// Sandbox Google accounts and their YouTube channels: a stable identity per `sandbox_user` name.
import { createHash } from 'node:crypto';

export interface SandboxChannel {
  /** UC + 22 characters. */
  id: string;
  title: string;
  /** The @handle (snippet.customUrl). */
  handle: string;
  /** Phone-verified: long uploads and custom thumbnails allowed (status.longUploadsStatus allowed). */
  verified: boolean;
  publishedAt: number;
}

export interface SandboxAccount {
  /** The Google account id (tokeninfo `sub`): 21 digits. */
  sub: string;
  name: string;
  /** null for a Google account that never created a channel. */
  channel: SandboxChannel | null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function sandboxAccount(name: string, flags: { noChannel: boolean; unverified: boolean }, now: number): SandboxAccount {
  const h = digest(`google:${name}`);
  const sub = `1${(h.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0')}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 30) || 'sandbox';
  const channel: SandboxChannel = {
    id: `UC${digest(`channel:${name}`).toString('base64url').slice(0, 22)}`,
    title: name,
    handle: `@${slug}`,
    verified: !flags.unverified,
    publishedAt: now,
  };
  return { sub, name, channel: flags.noChannel ? null : channel };
}

export function uploadsPlaylistId(channelId: string): string {
  return `UU${channelId.slice(2)}`;
}
