// herald posts | accounts | media: the API from a terminal, against a running Herald (HERALD_URL,
// HERALD_API_KEY), through the SDK. Tables for people, --json for scripts (the API's own answer).
// Exit codes: 0 done, 1 the API refused (its message and code on stderr) or could not be reached,
// 2 the command line is wrong.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { HeraldApiError, HeraldConnectionError, createHerald, type CreatePostInput, type Herald, type HeraldOptions, type Post } from '@herald/sdk';

export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export const CLIENT_USAGE = `API commands (against a running Herald: HERALD_URL, default http://127.0.0.1:3000, and HERALD_API_KEY):

  posts list [--status S] [--platform P] [--limit N] [--cursor C] [--from-date YYYY-MM-DD] [--to-date YYYY-MM-DD] [--all]
  posts get POST_ID
  posts create --content TEXT [--target platform:accountId]… [--media URL]… [--tag T]…
               (--draft | --now | --at TIME [--timezone ZONE] | --queue) [--idempotency-key UUID]
  posts create --body FILE                 a create body as JSON (- reads stdin)
  accounts list [--platform P]
  accounts health
  media upload FILE [--alt-text TEXT]      streamed, with a progress bar on a terminal
  mcp                                       Herald's MCP server on stdio (docs/mcp.md)

  Every API command takes --json to print the API's answer as JSON.
  Exit codes: 0 done, 1 the API refused or could not be reached, 2 usage.`;

class Usage extends Error {}

/** The SDK options from the environment, or what is missing. */
export function heraldTarget(env: NodeJS.ProcessEnv): HeraldOptions | string {
  const apiKey = env.HERALD_API_KEY?.trim();
  if (!apiKey) return 'set HERALD_API_KEY to an API key (npx herald keys create --name NAME prints one)';
  const baseUrl = (env.HERALD_URL?.trim() || 'http://127.0.0.1:3000').replace(/\/+$/, '');
  if (!/^https?:\/\/\S+$/i.test(baseUrl)) return `HERALD_URL must be an http(s) URL, got "${baseUrl}"`;
  return { baseUrl, apiKey, headers: { 'user-agent': `herald-cli/${VERSION}` } };
}

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const json = (value: unknown): void => out(JSON.stringify(value, null, 2));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

function postLine(p: Post): string[] {
  const targets = p.platforms.map((t) => `${t.platform}:${t.status}`).join(' ');
  const text = (p.content ?? '').replace(/\s+/g, ' ');
  return [p.id, p.status, p.createdAt, targets || '-', text.length > 50 ? `${text.slice(0, 49)}…` : text];
}

function printPost(p: Post): void {
  out(`${p.id}  ${p.status}${p.scheduledFor ? `  scheduled for ${p.scheduledFor}` : ''}  created ${p.createdAt}`);
  if (p.content) out(`  ${p.content}`);
  for (const t of p.platforms) {
    const where = t.platformPostUrl ?? t.platformPostId ?? '';
    const why = t.error ? `  ${t.errorCode ?? ''} ${t.error}`.trimEnd() : '';
    out(`  ${t.platform}:${t.accountId}  ${t.status}${where ? `  ${where}` : ''}${why}`);
  }
}

function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], options: T, positionals = 0) {
  try {
    const r = parseArgs({ args, options: { ...options, json: { type: 'boolean' } }, allowPositionals: positionals > 0, strict: true });
    if (r.positionals.length !== positionals) throw new Usage(positionals === 0 ? 'this command takes no positional argument' : `expected ${positionals} argument(s)`);
    return r;
  } catch (err) {
    throw err instanceof Usage ? err : new Usage((err as Error).message);
  }
}

async function postsCommand(h: Herald, sub: string | undefined, args: string[]): Promise<void> {
  switch (sub) {
    case 'list': {
      const { values } = parse(args, {
        status: { type: 'string' }, platform: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' },
        'from-date': { type: 'string' }, 'to-date': { type: 'string' }, all: { type: 'boolean' },
      });
      if (values.limit !== undefined && !/^\d+$/.test(values.limit)) throw new Usage('--limit must be a whole number');
      const query = {
        status: values.status, platform: values.platform, limit: values.limit ? Number(values.limit) : undefined,
        cursor: values.cursor, fromDate: values['from-date'], toDate: values['to-date'],
      } as Parameters<Herald['posts']['list']>[0];
      if (values.all) {
        const posts: Post[] = [];
        for await (const p of h.posts.iterate(query)) posts.push(p);
        if (values.json) return json({ posts });
        return out(posts.length ? table([['ID', 'STATUS', 'CREATED', 'TARGETS', 'CONTENT'], ...posts.map(postLine)]) : 'no posts');
      }
      const page = await h.posts.list(query);
      if (values.json) return json(page);
      out(page.posts.length ? table([['ID', 'STATUS', 'CREATED', 'TARGETS', 'CONTENT'], ...page.posts.map(postLine)]) : 'no posts');
      if (page.hasMore) out(`more: --cursor ${page.cursor}`);
      return;
    }
    case 'get': {
      const { values, positionals } = parse(args, {}, 1);
      const post = await h.posts.get(positionals[0]!);
      return values.json ? json(post) : printPost(post);
    }
    case 'create': {
      const { values } = parse(args, {
        content: { type: 'string' }, target: { type: 'string', multiple: true }, media: { type: 'string', multiple: true }, tag: { type: 'string', multiple: true },
        draft: { type: 'boolean' }, now: { type: 'boolean' }, at: { type: 'string' }, timezone: { type: 'string' }, queue: { type: 'boolean' },
        body: { type: 'string' }, 'idempotency-key': { type: 'string' },
      });
      let body: CreatePostInput;
      if (values.body !== undefined) {
        const others = ['content', 'target', 'media', 'tag', 'draft', 'now', 'at', 'timezone', 'queue'].filter((k) => values[k as keyof typeof values] !== undefined);
        if (others.length) throw new Usage(`--body takes the whole post; drop --${others.join(', --')}`);
        const text = readFileSync(values.body === '-' ? 0 : values.body, 'utf8');
        try {
          body = JSON.parse(text) as CreatePostInput;
        } catch {
          throw new Usage(`${values.body === '-' ? 'stdin' : values.body} is not JSON`);
        }
      } else {
        const modes = [values.draft && 'draft', values.now && 'now', values.at !== undefined && 'at', values.queue && 'queue'].filter(Boolean);
        if (modes.length !== 1) throw new Usage('choose exactly one of --draft, --now, --at TIME, --queue');
        const platforms = (values.target ?? []).map((t) => {
          const i = t.indexOf(':');
          if (i < 1 || i === t.length - 1) throw new Usage(`--target takes platform:accountId, got "${t}"`);
          return { platform: t.slice(0, i), accountId: t.slice(i + 1) };
        });
        body = {
          ...(values.content !== undefined ? { content: values.content } : {}),
          ...(platforms.length ? { platforms } : {}),
          ...(values.media?.length ? { mediaItems: values.media.map((url) => ({ type: /\.(mp4|mov|m4v|webm)(\?|$)/i.test(url) ? 'video' : 'image', url })) } : {}),
          ...(values.tag?.length ? { tags: values.tag } : {}),
          ...(values.draft ? { isDraft: true } : {}),
          ...(values.now ? { publishNow: true } : {}),
          ...(values.queue ? { queue: true } : {}),
          ...(values.at !== undefined ? { scheduledFor: values.at } : {}),
          ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
        } as CreatePostInput;
      }
      const post = await h.posts.create(body, values['idempotency-key'] ? { idempotencyKey: values['idempotency-key'] } : {});
      return values.json ? json(post) : printPost(post);
    }
    default:
      throw new Usage('posts needs list, get or create');
  }
}

async function accountsCommand(h: Herald, sub: string | undefined, args: string[]): Promise<void> {
  switch (sub) {
    case 'list': {
      const { values } = parse(args, { platform: { type: 'string' } });
      const answer = await h.accounts.list(values.platform ? { platform: values.platform as never } : {});
      if (values.json) return json(answer);
      return out(answer.accounts.length ? table([['PLATFORM', 'ACCOUNT ID', 'USERNAME', 'STATUS', 'CONNECTED'], ...answer.accounts.map((a) => [a.platform, a.accountId, a.username, a.status, a.connectedAt])]) : 'no accounts');
    }
    case 'health': {
      const { values } = parse(args, {});
      const answer = await h.accounts.health();
      if (values.json) return json(answer);
      if (!answer.accounts.length) return out('no accounts');
      return out(table([['PLATFORM', 'ACCOUNT ID', 'USERNAME', 'HEALTH', 'RECOMMENDATIONS'], ...answer.accounts.map((a) => [a.platform, a.accountId, a.username, a.health, a.recommendations.map((r) => `${r.code}: ${r.message}`).join('; ') || '-'])]));
    }
    default:
      throw new Usage('accounts needs list or health');
  }
}

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif', '.heic': 'image/heic',
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.mov': 'video/quicktime', '.pdf': 'application/pdf',
};

function progressBar(total: number) {
  const width = 30;
  let last = -1;
  return (sent: number) => {
    const pct = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 100;
    if (pct === last) return;
    last = pct;
    const filled = Math.round((pct / 100) * width);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}%  ${(sent / 1e6).toFixed(1)} / ${(total / 1e6).toFixed(1)} MB`);
  };
}

async function mediaCommand(h: Herald, sub: string | undefined, args: string[]): Promise<void> {
  if (sub !== 'upload') throw new Usage('media needs upload FILE');
  const { values, positionals } = parse(args, { 'alt-text': { type: 'string' } }, 1);
  const file = positionals[0]!;
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Usage(`${file} is not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof Usage) throw err;
    throw new Usage(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const bar = process.stderr.isTTY && !values.json ? progressBar(size) : null;
  const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  try {
    const media = await h.media.upload(stream, {
      size,
      filename: file.split('/').pop(),
      contentType: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      ...(values['alt-text'] !== undefined ? { altText: values['alt-text'] } : {}),
      ...(bar ? { onProgress: (sent: number) => bar(sent) } : {}),
    });
    if (bar) process.stderr.write('\n');
    if (values.json) return json(media);
    out(`${media.id}  ${media.type}  ${media.contentType}  ${media.bytes} bytes\n  ${media.url}`);
  } catch (err) {
    if (bar) process.stderr.write('\n');
    throw err;
  }
}

/** Runs an API command; returns the exit code. */
export async function clientCommand(command: 'posts' | 'accounts' | 'media', args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') throw new Usage(`${command} needs a subcommand`);
    const target = heraldTarget(env);
    if (typeof target === 'string') throw new Usage(target);
    const h = createHerald(target);
    if (command === 'posts') await postsCommand(h, sub, rest);
    else if (command === 'accounts') await accountsCommand(h, sub, rest);
    else await mediaCommand(h, sub, rest);
    return 0;
  } catch (err) {
    if (err instanceof Usage) {
      console.error(`herald: ${err.message}\n\n${CLIENT_USAGE}`);
      return 2;
    }
    if (err instanceof HeraldApiError) {
      const where = [err.param ? `param ${err.param}` : '', err.requestId ? `request ${err.requestId}` : ''].filter(Boolean).join(', ');
      console.error(`herald: ${err.message} (${err.status} ${err.code}${where ? `; ${where}` : ''})`);
      return 1;
    }
    if (err instanceof HeraldConnectionError) {
      console.error(`herald: cannot reach Herald: ${err.message}. Is it running, and is HERALD_URL right?`);
      return 1;
    }
    throw err;
  }
}
