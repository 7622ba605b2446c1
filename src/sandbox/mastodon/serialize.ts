// Entities as the server renders them (REST::StatusSerializer, AccountSerializer, MediaAttachmentSerializer):
// ids as strings, times ISO 8601 with milliseconds, content as sanitized HTML.
import { linkRanges } from '../../platforms/mastodon/text.ts';
import type { MastodonContext } from './context.ts';
import type { App, Media, Status, User } from './state.ts';

export interface View {
  ctx: MastodonContext;
  /** Where the instance answers (http://127.0.0.1:…/mastodon). */
  base: string;
  /** The instance's domain (handles, status URLs). */
  domain: string;
  /** The account looking, if any: it alone sees its statuses' application and source. */
  viewer: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function linkify(line: string): string {
  let out = '';
  let pos = 0;
  for (const [start, end] of linkRanges(line)) {
    const url = line.slice(start, end);
    const m = /^([a-z]+:\/\/(?:www\.)?)(.*)$/i.exec(url);
    const [prefix, rest] = m ? [m[1]!, m[2]!] : ['', url];
    const shown = rest.length > 30 ? `<span class="ellipsis">${escapeHtml(rest.slice(0, 30))}</span><span class="invisible">${escapeHtml(rest.slice(30))}</span>` : `<span class="">${escapeHtml(rest)}</span>`;
    out += `${escapeHtml(line.slice(pos, start))}<a href="${escapeHtml(url)}" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">${escapeHtml(prefix)}</span>${shown}</a>`;
    pos = end;
  }
  return out + escapeHtml(line.slice(pos));
}

/** Plain text → the server's HTML: paragraphs on blank lines, <br /> on single ones, links wrapped. */
export function toHtml(text: string): string {
  if (!text) return '';
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((para) => `<p>${para.split('\n').map(linkify).join('<br />')}</p>`)
    .join('');
}

export function accountUrl(v: View, user: User): string {
  return `https://${v.domain}/@${user.username}`;
}

export function statusUrl(v: View, s: Status, user: User): string {
  return `https://${v.domain}/@${user.username}/${s.id}`;
}

export function renderAccount(v: View, user: User): Record<string, unknown> {
  const statuses = [...v.ctx.state.statuses.values()].filter((s) => s.accountId === user.id && !s.deleted);
  const last = statuses.reduce((m, s) => Math.max(m, s.createdAt), 0);
  const avatar = `${v.base}/avatars/original/missing.png`;
  return {
    id: user.id,
    username: user.username,
    acct: user.username,
    display_name: user.displayName,
    locked: false,
    bot: false,
    discoverable: true,
    group: false,
    created_at: iso(user.createdAt),
    note: '',
    url: accountUrl(v, user),
    uri: `https://${v.domain}/users/${user.username}`,
    avatar,
    avatar_static: avatar,
    header: `${v.base}/headers/original/missing.png`,
    header_static: `${v.base}/headers/original/missing.png`,
    followers_count: 0,
    following_count: 0,
    statuses_count: statuses.length,
    last_status_at: last ? iso(last).slice(0, 10) : null,
    emojis: [],
    fields: [],
  };
}

export function renderCredentialAccount(v: View, user: User): Record<string, unknown> {
  return {
    ...renderAccount(v, user),
    source: { privacy: 'public', sensitive: false, language: null, note: '', fields: [], follow_requests_count: 0 },
    role: { id: '-99', name: '', permissions: '0', color: '', highlighted: false },
  };
}

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm' };

export function renderMedia(v: View, m: Media): Record<string, unknown> {
  const ready = v.ctx.state.now() >= m.readyAt && !m.failed;
  const path = `${v.base}/system/media_attachments/files/${m.id}`;
  const ext = m.kind === 'gifv' ? 'mp4' : (EXT[m.mime] ?? 'bin');
  const [x, y] = (m.focus ?? '0,0').split(',').map(Number);
  return {
    id: m.id,
    type: m.kind,
    url: ready ? `${path}/original/media.${ext}` : null,
    preview_url: ready ? `${path}/small/media.jpg` : null,
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: { focus: { x: x ?? 0, y: y ?? 0 }, original: { size: `${m.bytes} bytes` } },
    description: m.description,
    blurhash: ready ? 'UFBWY:8_0Jxv4mx]t8t64.%M-:IUWGWAt6M}' : null,
  };
}

export function renderApplication(app: App | undefined): Record<string, unknown> | null {
  return app ? { name: app.name, website: app.website } : null;
}

export function renderStatus(v: View, s: Status): Record<string, unknown> {
  const { state } = v.ctx;
  const user = state.users.get(s.accountId)!;
  const app = s.appClientId ? state.appsByClientId.get(s.appClientId) : undefined;
  const replies = [...state.statuses.values()].filter((r) => r.inReplyToId === s.id && state.visibleTo(r, v.viewer)).length;
  return {
    id: s.id,
    created_at: iso(s.createdAt),
    in_reply_to_id: s.inReplyToId,
    in_reply_to_account_id: s.inReplyToAccountId,
    sensitive: s.sensitive,
    spoiler_text: s.spoilerText,
    visibility: s.visibility,
    language: s.language,
    uri: `https://${v.domain}/users/${user.username}/statuses/${s.id}`,
    url: statusUrl(v, s, user),
    replies_count: replies,
    reblogs_count: 0,
    favourites_count: 0,
    quotes_count: 0,
    edited_at: s.editedAt === null ? null : iso(s.editedAt),
    favourited: false,
    reblogged: false,
    muted: false,
    bookmarked: false,
    pinned: false,
    content: toHtml(s.text),
    filtered: [],
    reblog: null,
    // The author sees which app posted (the server shows it to others too, unless hidden).
    ...(v.viewer === s.accountId ? { application: renderApplication(app) } : {}),
    account: renderAccount(v, user),
    media_attachments: s.mediaIds.map((id) => state.media.get(id)).filter((m): m is Media => m !== undefined).map((m) => renderMedia(v, m)),
    mentions: [],
    tags: [],
    emojis: [],
    card: null,
    poll: null,
  };
}
