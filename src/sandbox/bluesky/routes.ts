// The XRPC methods the emulated PDS answers, at /xrpc/<nsid>, with the PDS's own order of checks: the
// HTTP method, the token, the request encoding, the input's schema, then the method's own rules
// (docs/internal/bluesky-pds.md). Anything else is what a PDS without an AppView says about it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHandle } from '../../platforms/bluesky/facets.ts';
import { POST_COLLECTION, PROFILE_COLLECTION, RATE_LIMITS } from '../../platforms/bluesky/info.ts';
import { isTid } from '../../platforms/bluesky/tid.ts';
import type { Ledger } from '../kit/ledger.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { checkPostRecord } from './lexicon.ts';
import type { PdsSessions } from './sessions.ts';
import { APP_PASSWORD_RE, didForHandle, type Account, type PdsState, type Repo, type StoredRecord } from './state.ts';
import { cidOf, invalid, sendJson, XrpcError } from './xrpc.ts';

export interface PdsSettings {
  blobUploadLimit: number;
  /** Sign-in with an unknown handle and an app password creates that account (the sandbox's users). */
  autoCreateAccounts: boolean;
  /** Session answers carry the DID document, as bsky.social's do (PDS_ENABLE_DID_DOC_WITH_SESSION). */
  didDocWithSession: boolean;
  writePointsPerHour: number;
  writePointsPerDay: number;
  /** Blobs up to this size are held (and served by getBlob); larger ones are only counted. */
  keepBlobBytes: number;
}

export interface PdsContext {
  now: () => number;
  state: PdsState;
  sessions: PdsSessions;
  ledger: Ledger;
  settings: PdsSettings;
  /** Creates an account with a profile (display name and avatar). */
  createAccount(input: { handle: string; appPassword?: string; displayName?: string }): Account;
}

interface Call {
  req: FastifyRequest;
  reply: FastifyReply;
  params: Record<string, string>;
  body: unknown;
  prefix: string;
}

type Input = 'none' | 'json' | 'any';
interface Method {
  type: 'query' | 'procedure';
  input?: Input;
  /** Which token the call needs. */
  auth?: 'access' | 'refresh';
  run(ctx: PdsContext, call: Call, caller: string | undefined): unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

function inputOf(body: unknown, keys: string[]): Obj {
  if (!isObj(body)) throw invalid('Expected an object at $');
  for (const k of keys) if (body[k] === undefined) throw invalid(`Missing required key "${k}" at $`);
  return body;
}

function paramsOf(nsid: string, params: Record<string, string>, keys: string[]): void {
  for (const k of keys) if (params[k] === undefined) throw invalid(`Invalid ${nsid} params: Missing required key "${k}"`);
}

function sessionBody(ctx: PdsContext, account: Account, pair: { accessJwt: string; refreshJwt: string }, call: Call): Obj {
  const body: Obj = { ...pair, did: account.did, handle: account.handle, email: account.email, emailConfirmed: false, active: account.active };
  if (account.status) body.status = account.status;
  if (ctx.settings.didDocWithSession) {
    body.didDoc = {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: account.did,
      alsoKnownAs: [`at://${account.handle}`],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: emulatorBaseUrl(call.req, call.prefix) }],
    };
  }
  return body;
}

/** The repository a write names: the caller's own (by DID or handle), else 403 or 401 as the PDS answers. */
function ownRepo(ctx: PdsContext, repoParam: unknown, caller: string): { account: Account; repo: Repo } {
  const account = typeof repoParam === 'string' ? ctx.state.byRepo(repoParam) : undefined;
  if (!account) throw new XrpcError(403, 'AccountNotFound', 'Account not found');
  if (account.did !== caller) throw new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
  return { account, repo: ctx.state.repoOf(account.did) };
}

function checkRkey(collection: string, rkey: string): void {
  if (!/^[a-zA-Z0-9._:~-]{1,512}$/.test(rkey) || rkey === '.' || rkey === '..') throw invalid(`Invalid record key (got ${JSON.stringify(rkey)}) at $.rkey`);
  if (collection === POST_COLLECTION && !isTid(rkey)) {
    throw invalid(`Invalid record key for ${collection}: Invalid TID string (got ${JSON.stringify(rkey)}) at $`);
  }
}

function sniff(bytes: Buffer, declared: string): string {
  const ascii = (a: number, b: number) => bytes.subarray(a, b).toString('latin1');
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp') return ascii(8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  return declared.split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
}

function storeRecord(ctx: PdsContext, account: Account, repo: Repo, collection: string, rkey: string, value: Obj, blobCids: string[]): StoredRecord {
  const uri = `at://${account.did}/${collection}/${rkey}`;
  const stored: StoredRecord = { uri, cid: cidOf(JSON.stringify(value), 'dag-cbor'), value, blobs: blobCids };
  let records = repo.records.get(collection);
  if (!records) repo.records.set(collection, (records = new Map()));
  records.set(rkey, stored);
  for (const cid of blobCids) repo.blobs.get(cid)?.refs.add(uri);
  return stored;
}

function commitOf(ctx: PdsContext, repo: Repo, value: unknown): Obj {
  return { cid: cidOf(`${JSON.stringify(value)}:${ctx.now()}`, 'dag-cbor'), rev: ctx.state.nextRev(repo, ctx.now()) };
}

function ledgerPost(ctx: PdsContext, did: string, stored: StoredRecord, repo: Repo): void {
  const v = stored.value;
  const embed = isObj(v.embed) ? v.embed : undefined;
  const blobFacts = (blob: unknown) => {
    const cid = ((blob as Obj | undefined)?.ref as Obj | undefined)?.$link as string | undefined;
    const b = cid ? repo.blobs.get(cid) : undefined;
    return { cid, mimeType: b?.mimeType, size: b?.size };
  };
  const images = embed?.$type === 'app.bsky.embed.images' && Array.isArray(embed.images)
    ? (embed.images as Obj[]).map((i) => ({ ...blobFacts(i.image), alt: i.alt, aspectRatio: i.aspectRatio }))
    : [];
  const video = embed?.$type === 'app.bsky.embed.video' ? { ...blobFacts(embed.video), alt: embed.alt, aspectRatio: embed.aspectRatio } : undefined;
  const external = embed?.$type === 'app.bsky.embed.external' ? (embed.external as Obj) : undefined;
  ctx.ledger.record({
    id: stored.uri,
    accountId: did,
    kind: v.reply ? 'reply' : 'post',
    text: typeof v.text === 'string' ? v.text : '',
    media: [...images.map((i) => ({ type: 'image', url: i.cid ?? '' })), ...(video ? [{ type: 'video', url: video.cid ?? '' }] : [])],
    createdAt: ctx.now(),
    extra: {
      rkey: stored.uri.slice(stored.uri.lastIndexOf('/') + 1),
      cid: stored.cid,
      langs: v.langs,
      facets: v.facets,
      images,
      video,
      external: external ? { uri: external.uri, title: external.title, description: external.description, thumb: external.thumb ? blobFacts(external.thumb) : undefined } : undefined,
      reply: v.reply,
    },
  });
}

const METHODS: Record<string, Method> = {
  'com.atproto.server.describeServer': {
    type: 'query',
    run: (ctx) => ({
      did: ctx.sessions.serviceDid,
      availableUserDomains: ['.bsky.social'],
      inviteCodeRequired: false,
      blobUploadLimit: ctx.settings.blobUploadLimit,
      links: {},
      contact: {},
    }),
  },

  'com.atproto.server.createSession': {
    type: 'procedure',
    input: 'json',
    run(ctx, call) {
      const body = inputOf(call.body, ['identifier', 'password']);
      const identifier = String(body.identifier);
      const password = String(body.password);
      ctx.state.countSignIn(identifier, ctx.now());
      let account = ctx.state.byIdentifier(identifier);
      if (!account && ctx.settings.autoCreateAccounts && isHandle(identifier) && APP_PASSWORD_RE.test(password)) {
        account = ctx.createAccount({ handle: identifier.toLowerCase(), appPassword: password });
      }
      if (!account || ![...account.appPasswords.values()].includes(password)) {
        throw new XrpcError(401, 'AuthenticationRequired', 'Invalid identifier or password');
      }
      if (account.status === 'takendown') throw new XrpcError(401, 'AccountTakedown', 'Account has been taken down');
      return sessionBody(ctx, account, ctx.sessions.create(account.did), call);
    },
  },

  'com.atproto.server.refreshSession': {
    type: 'procedure',
    input: 'none',
    auth: 'refresh',
    run(ctx, call) {
      const { did, pair } = ctx.sessions.rotate(call.req.headers.authorization);
      const account = ctx.state.accounts.get(did);
      if (!account) throw new XrpcError(400, 'InvalidToken', 'Token could not be verified');
      return sessionBody(ctx, account, pair, call);
    },
  },

  'com.atproto.server.deleteSession': {
    type: 'procedure',
    input: 'none',
    auth: 'refresh',
    run(ctx, call) {
      ctx.sessions.end(call.req.headers.authorization);
      return undefined;
    },
  },

  'com.atproto.server.getSession': {
    type: 'query',
    auth: 'access',
    run(ctx, _call, caller) {
      const account = ctx.state.accounts.get(caller!)!;
      const body: Obj = { did: account.did, handle: account.handle, email: account.email, emailConfirmed: false, active: account.active };
      if (account.status) body.status = account.status;
      return body;
    },
  },

  'com.atproto.identity.resolveHandle': {
    type: 'query',
    run(ctx, call) {
      const nsid = 'com.atproto.identity.resolveHandle';
      paramsOf(nsid, call.params, ['handle']);
      const handle = call.params.handle!;
      if (!isHandle(handle)) throw invalid(`Invalid ${nsid} params: Invalid handle (got ${JSON.stringify(handle)})`);
      const account = ctx.state.byIdentifier(handle.toLowerCase());
      if (!account) throw new XrpcError(400, 'HandleNotFound', 'Unable to resolve handle');
      return { did: account.did };
    },
  },

  'com.atproto.repo.uploadBlob': {
    type: 'procedure',
    input: 'any',
    auth: 'access',
    run(ctx, call, caller) {
      const bytes = Buffer.isBuffer(call.body) ? call.body : Buffer.from(JSON.stringify(call.body ?? ''));
      const repo = ctx.state.repoOf(caller!);
      const mimeType = sniff(bytes, String(call.req.headers['content-type'] ?? ''));
      const cid = cidOf(bytes, 'raw');
      const existing = repo.blobs.get(cid);
      if (existing) existing.mimeType = mimeType;
      else repo.blobs.set(cid, { cid, mimeType, size: bytes.length, refs: new Set(), ...(bytes.length <= ctx.settings.keepBlobBytes ? { bytes } : {}) });
      return { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.length } };
    },
  },

  'com.atproto.repo.createRecord': {
    type: 'procedure',
    input: 'json',
    auth: 'access',
    run(ctx, call, caller) {
      const body = inputOf(call.body, ['repo', 'collection', 'record']);
      const collection = String(body.collection);
      const { account, repo } = ownRepo(ctx, body.repo, caller!);
      const rkey = body.rkey === undefined ? ctx.state.nextRev(repo, ctx.now()) : String(body.rkey);
      checkRkey(collection, rkey);
      const record = body.record as Obj;
      if (isObj(record) && record.$type !== undefined && record.$type !== collection) {
        throw invalid(`Invalid $type: expected ${collection}, got ${String(record.$type)}`);
      }
      const validate = body.validate !== false && collection === POST_COLLECTION;
      const refs = validate ? checkPostRecord(record).blobs : [];
      for (const ref of refs) {
        const blob = repo.blobs.get(ref.cid);
        if (!blob) throw new XrpcError(400, 'BlobNotFound', `Could not find blob: ${ref.cid}`);
        if (blob.mimeType !== ref.mimeType) {
          throw new XrpcError(400, 'InvalidMimeType', `Referenced Mimetype does not match stored blob. Expected: ${blob.mimeType}, Got: ${ref.mimeType}`);
        }
      }
      // The repository holds one record per key: a second create under it fails inside the PDS (its log says
      // "There is already a value at key"), and the caller gets an anonymous 500.
      if (repo.records.get(collection)?.has(rkey)) throw new XrpcError(500, 'InternalServerError', 'Internal Server Error');
      ctx.state.spendWritePoints(repo, RATE_LIMITS.createPoints, ctx.now(), { perHour: ctx.settings.writePointsPerHour, perDay: ctx.settings.writePointsPerDay });
      const value = { ...record, $type: collection };
      const stored = storeRecord(ctx, account, repo, collection, rkey, value, refs.map((r) => r.cid));
      if (collection === POST_COLLECTION) ledgerPost(ctx, account.did, stored, repo);
      return { uri: stored.uri, cid: stored.cid, commit: commitOf(ctx, repo, value), ...(validate ? { validationStatus: 'valid' } : {}) };
    },
  },

  'com.atproto.repo.deleteRecord': {
    type: 'procedure',
    input: 'json',
    auth: 'access',
    run(ctx, call, caller) {
      const body = inputOf(call.body, ['repo', 'collection', 'rkey']);
      const collection = String(body.collection);
      const rkey = String(body.rkey);
      const { account, repo } = ownRepo(ctx, body.repo, caller!);
      const records = repo.records.get(collection);
      const stored = records?.get(rkey);
      if (!stored) return {};
      ctx.state.spendWritePoints(repo, RATE_LIMITS.deletePoints, ctx.now(), { perHour: ctx.settings.writePointsPerHour, perDay: ctx.settings.writePointsPerDay });
      records!.delete(rkey);
      // A blob no record uses any more goes with the record.
      for (const cid of stored.blobs) {
        const blob = repo.blobs.get(cid);
        blob?.refs.delete(stored.uri);
        if (blob && blob.refs.size === 0) repo.blobs.delete(cid);
      }
      if (collection === POST_COLLECTION) {
        const entry = ctx.ledger.get(stored.uri);
        if (entry) entry.extra = { ...entry.extra, deletedAt: ctx.now() };
        ctx.ledger.record({ id: stored.uri, accountId: account.did, kind: 'delete', text: '', media: [], createdAt: ctx.now() });
      }
      return { commit: commitOf(ctx, repo, { deleted: stored.uri }) };
    },
  },

  'com.atproto.repo.getRecord': {
    type: 'query',
    run(ctx, call) {
      paramsOf('com.atproto.repo.getRecord', call.params, ['repo', 'collection', 'rkey']);
      const account = ctx.state.byRepo(call.params.repo!);
      if (!account) throw invalid('Could not locate record');
      const uri = `at://${account.did}/${call.params.collection}/${call.params.rkey}`;
      const stored = ctx.state.repoOf(account.did).records.get(call.params.collection!)?.get(call.params.rkey!);
      if (!stored) throw new XrpcError(400, 'RecordNotFound', `Could not locate record: ${uri}`);
      return { uri: stored.uri, cid: stored.cid, value: stored.value };
    },
  },

  'com.atproto.repo.listRecords': {
    type: 'query',
    run(ctx, call) {
      const nsid = 'com.atproto.repo.listRecords';
      paramsOf(nsid, call.params, ['repo', 'collection']);
      let limit = 50;
      if (call.params.limit !== undefined) {
        limit = Number(call.params.limit);
        if (!Number.isInteger(limit)) throw invalid(`Invalid ${nsid} params: Expected an integer`);
        if (limit > 100) throw invalid(`Invalid ${nsid} params: integer too big (maximum 100, got ${limit})`);
        if (limit < 1) throw invalid(`Invalid ${nsid} params: integer too small (minimum 1, got ${limit})`);
      }
      const account = ctx.state.byRepo(call.params.repo!);
      if (!account) throw invalid(`Could not find repo: ${call.params.repo}`);
      const reverse = call.params.reverse === 'true';
      const cursor = call.params.cursor;
      const all = [...(ctx.state.repoOf(account.did).records.get(call.params.collection!)?.entries() ?? [])]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (!reverse) all.reverse();
      const page = all.filter(([k]) => cursor === undefined || (reverse ? k > cursor : k < cursor)).slice(0, limit);
      const out: Obj = { records: page.map(([, r]) => ({ uri: r.uri, cid: r.cid, value: r.value })) };
      if (page.length > 0) out.cursor = page.at(-1)![0];
      return out;
    },
  },

  'com.atproto.sync.getBlob': {
    type: 'query',
    run(ctx, call) {
      paramsOf('com.atproto.sync.getBlob', call.params, ['did', 'cid']);
      const blob = ctx.state.repos.get(call.params.did!)?.blobs.get(call.params.cid!);
      if (!blob || blob.refs.size === 0 || !blob.bytes) throw invalid('Blob not found');
      call.reply.code(200).header('content-type', blob.mimeType).send(blob.bytes);
      return call.reply;
    },
  },
};

function encodingOf(req: FastifyRequest): string | undefined {
  const ct = req.headers['content-type'];
  return ct ? ct.split(';')[0]!.trim().toLowerCase() : undefined;
}

export function registerXrpcRoutes(app: FastifyInstance, ctx: PdsContext): void {
  const prefix = app.prefix;
  app.get('/xrpc/_health', async (_req, reply) => sendJson(reply, { version: 'herald-sandbox' }));

  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: '/xrpc/:nsid',
    handler: async (req, reply) => {
      const nsid = (req.params as { nsid: string }).nsid;
      const method = METHODS[nsid];
      // Unknown methods go to the AppView (or another service) through the PDS, and none is configured.
      if (!method) throw invalid(`No service configured for ${nsid}`);
      const expected = method.type === 'procedure' ? 'POST' : 'GET';
      if (req.method !== expected) throw invalid(`Incorrect HTTP method (${req.method}) expected ${expected}`);
      let caller: string | undefined;
      if (method.auth === 'access') caller = ctx.sessions.verifyAccess(req.headers.authorization).did;
      else if (method.auth === 'refresh' && !req.headers.authorization) throw new XrpcError(401, 'AuthMissing', 'Authentication Required');
      if (method.input === 'json' || method.input === 'any') {
        const encoding = encodingOf(req);
        if (!encoding) throw invalid('Request encoding (Content-Type) required but not provided');
        if (method.input === 'json' && encoding !== 'application/json') throw invalid(`Wrong request encoding (Content-Type): ${encoding}`);
      }
      const params = Object.fromEntries(Object.entries((req.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]));
      const out = method.run(ctx, { req, reply, params, body: req.body, prefix }, caller);
      if (out === reply) return reply;
      if (out === undefined) return reply.code(200).send();
      return sendJson(reply, out);
    },
  });
}

export function profileRecord(displayName: string, avatar: { cid: string; size: number }): Obj {
  return {
    $type: PROFILE_COLLECTION,
    displayName,
    avatar: { $type: 'blob', ref: { $link: avatar.cid }, mimeType: 'image/png', size: avatar.size },
  };
}

export { didForHandle };
