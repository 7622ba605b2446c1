// Bluesky emulator: a PDS (the XRPC API of bsky.social or a self-hosted PDS) as Herald's adapter uses it:
// app-password sessions, handle resolution, blobs, app.bsky.feed.post records under caller-chosen keys,
// reads, deletes and rate limits, with the statuses and error bodies the real PDS gives
// (docs/internal/bluesky-pds.md). Sandbox users sign in with any handle and any app password shaped
// xxxx-xxxx-xxxx-xxxx: the first sign-in creates the account with that password.
import type { FastifyInstance } from 'fastify';
import { createEmulatorBase, installCommon, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';
import { randomAppPassword } from './passwords.ts';
import { profileRecord, registerXrpcRoutes, type PdsContext, type PdsSettings } from './routes.ts';
import { PdsSessions } from './sessions.ts';
import { didForHandle, PdsState, type Account } from './state.ts';
import { cidOf, JSON_TYPE, renderFault, XrpcError } from './xrpc.ts';
import { PROFILE_COLLECTION, RATE_LIMITS } from '../../platforms/bluesky/info.ts';

export interface BlueskyEmulatorOptions extends EmulatorOptions, Partial<PdsSettings> {}

export interface SandboxAccount {
  did: string;
  handle: string;
  email: string;
  appPassword: string;
}

export interface BlueskyEmulator extends Emulator {
  readonly settings: PdsSettings;
  readonly state: PdsState;
  /** A new account with a profile and an app password (random unless given). */
  createAccount(input: { handle: string; appPassword?: string; displayName?: string }): SandboxAccount;
}

/** The installer's PDS_BLOB_UPLOAD_LIMIT (50 MiB): room for video, unlike the package default of 5 MiB. */
export const SANDBOX_BLOB_UPLOAD_LIMIT = 50 * 1024 * 1024;

// A 1×1 PNG: every sandbox account's avatar.
const AVATAR = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export function createBlueskyEmulator(options: BlueskyEmulatorOptions = {}): BlueskyEmulator {
  const now = options.now ?? Date.now;
  const initial = (): PdsSettings => ({
    blobUploadLimit: options.blobUploadLimit ?? SANDBOX_BLOB_UPLOAD_LIMIT,
    autoCreateAccounts: options.autoCreateAccounts ?? true,
    didDocWithSession: options.didDocWithSession ?? true,
    writePointsPerHour: options.writePointsPerHour ?? RATE_LIMITS.writePointsPerHour,
    writePointsPerDay: options.writePointsPerDay ?? RATE_LIMITS.writePointsPerDay,
    keepBlobBytes: options.keepBlobBytes ?? 2_000_000,
  });
  const settings = initial();
  const base = createEmulatorBase();
  const state = new PdsState();
  const sessions = new PdsSessions(now, 'did:web:bsky.sandbox');

  function addAccount(input: { handle: string; appPassword?: string; displayName?: string }): Account {
    const handle = input.handle.toLowerCase();
    const did = didForHandle(handle);
    const existing = state.accounts.get(did);
    if (existing) {
      if (input.appPassword && ![...existing.appPasswords.values()].includes(input.appPassword)) existing.appPasswords.set(`app-${existing.appPasswords.size + 1}`, input.appPassword);
      return existing;
    }
    const account = state.add({
      did,
      handle,
      email: `${handle.split('.')[0]}@sandbox.invalid`,
      appPasswords: new Map([['herald', input.appPassword ?? randomAppPassword()]]),
      active: true,
    });
    const repo = state.repoOf(did);
    const avatarCid = cidOf(AVATAR, 'raw');
    repo.blobs.set(avatarCid, { cid: avatarCid, mimeType: 'image/png', size: AVATAR.length, bytes: AVATAR, refs: new Set() });
    const value = profileRecord(input.displayName ?? `Sandbox ${handle.split('.')[0]}`, { cid: avatarCid, size: AVATAR.length });
    const uri = `at://${did}/${PROFILE_COLLECTION}/self`;
    repo.records.set(PROFILE_COLLECTION, new Map([['self', { uri, cid: cidOf(JSON.stringify(value), 'dag-cbor'), value, blobs: [avatarCid] }]]));
    repo.blobs.get(avatarCid)!.refs.add(uri);
    return account;
  }

  const ctx: PdsContext = { now, state, sessions, ledger: base.ledger, settings, createAccount: addAccount };

  const emu: BlueskyEmulator = {
    name: 'bluesky',
    platforms: ['bluesky'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth: sessions,
    settings,
    state,
    createAccount(input) {
      const account = addAccount(input);
      return { did: account.did, handle: account.handle, email: account.email, appPassword: input.appPassword ?? [...account.appPasswords.values()][0]! };
    },
    async plugin(app: FastifyInstance) {
      // JSON with the PDS's own error for a malformed body; every other type arrives as bytes (uploadBlob
      // takes any), up to the blob upload limit.
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => {
        const text = body as string;
        if (text.length === 0) return done(null, undefined);
        try {
          done(null, JSON.parse(text));
        } catch (err) {
          done(new XrpcError(400, 'SyntaxError', (err as Error).message), undefined);
        }
      });
      app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: settings.blobUploadLimit }, (_req, body, done) => done(null, body));
      installCommon(app, emu);
      app.setErrorHandler((err: { statusCode?: number; code?: string; message?: string }, _req, reply) => {
        if (err instanceof XrpcError) return reply.code(err.status).headers({ ...err.headers, 'content-type': JSON_TYPE }).send(JSON.stringify({ error: err.error, message: err.message }));
        if (err.statusCode === 413) return reply.code(413).header('content-type', JSON_TYPE).send(JSON.stringify({ error: 'PayloadTooLarge', message: 'request entity too large' }));
        if (err.statusCode && err.statusCode < 500) return reply.code(400).header('content-type', JSON_TYPE).send(JSON.stringify({ error: 'InvalidRequest', message: err.message ?? 'Invalid request' }));
        return reply.code(500).header('content-type', JSON_TYPE).send(JSON.stringify({ error: 'InternalServerError', message: 'Internal Server Error' }));
      });
      registerXrpcRoutes(app, ctx);
      // Test and sandbox control: accounts made ahead of a sign-in, and account states.
      app.post('/__sandbox/accounts', async (req) => {
        const body = (req.body ?? {}) as { handle?: string; appPassword?: string; displayName?: string };
        if (!body.handle) throw new XrpcError(400, 'InvalidRequest', 'handle is required');
        return emu.createAccount({ handle: body.handle, ...(body.appPassword ? { appPassword: body.appPassword } : {}), ...(body.displayName ? { displayName: body.displayName } : {}) });
      });
    },
    errorFor: (kind: ErrorFaultKind, rule: FaultRule) => renderFault(kind, rule, now()),
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      sessions.reset();
      state.clear();
      Object.assign(settings, initial());
    },
  };
  return emu;
}
