// App-password sessions as the PDS issues them (docs/internal/bluesky-pds.md): HS256 JWTs, an access token
// (typ at+jwt, scope com.atproto.appPass, 2 hours) and a refresh token (typ refresh+jwt, scope
// com.atproto.refresh, 90 days, with a jti). Refresh tokens rotate; the old one answers with the same next
// pair for a grace period; deleteSession revokes a refresh token; access tokens live until they expire.
// It extends the kit's OAuthServer so the shared control route (tokens/expire) reaches it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SESSION } from '../../platforms/bluesky/info.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { XrpcError } from './xrpc.ts';

export const APP_PASS_SCOPE = 'com.atproto.appPass';
const ACCESS_SCOPES = new Set([APP_PASS_SCOPE, 'com.atproto.appPassPrivileged', 'com.atproto.access']);

export interface SessionPair {
  accessJwt: string;
  refreshJwt: string;
}

interface RefreshRecord {
  did: string;
  scope: string;
  expiresAt: number;
  revoked: boolean;
  /** Set once used: the pair it was turned into, and when. */
  next?: SessionPair;
  rotatedAt?: number;
}

interface AccessRecord {
  did: string;
  expiresAt: number;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export class PdsSessions extends OAuthServer {
  readonly serviceDid: string;
  #secret = randomBytes(32);
  #now: () => number;
  #refresh = new Map<string, RefreshRecord>();
  #access = new Map<string, AccessRecord>();

  constructor(now: () => number, serviceDid: string) {
    super({ now, tokenPrefix: 'bsky.', codeTtlMs: 0, accessTtlMs: SESSION.accessTtlMs, refreshTtlMs: SESSION.refreshTtlMs, rotateRefresh: true });
    this.#now = now;
    this.serviceDid = serviceDid;
  }

  #sign(header: object, claims: object): string {
    const body = `${b64(header)}.${b64(claims)}`;
    return `${body}.${createHmac('sha256', this.#secret).update(body).digest('base64url')}`;
  }

  /** Verified claims of one of our tokens of the given type, or null. */
  #verify(token: string, typ: string): Record<string, unknown> | null {
    const [h, c, s] = token.split('.');
    if (!h || !c || !s) return null;
    const expected = createHmac('sha256', this.#secret).update(`${h}.${c}`).digest();
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { typ?: string };
      if (header.typ !== typ) return null;
      return JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  create(did: string, scope = APP_PASS_SCOPE): SessionPair {
    const now = this.#now();
    const iat = Math.floor(now / 1000);
    const accessExp = iat + SESSION.accessTtlMs / 1000;
    const refreshExp = iat + SESSION.refreshTtlMs / 1000;
    const jti = randomBytes(24).toString('base64url');
    const accessJwt = this.#sign({ typ: 'at+jwt', alg: 'HS256' }, { scope, aud: this.serviceDid, sub: did, iat, exp: accessExp });
    const refreshJwt = this.#sign({ typ: 'refresh+jwt', alg: 'HS256' }, { scope: 'com.atproto.refresh', aud: this.serviceDid, sub: did, jti, iat, exp: refreshExp });
    // Two sessions made in the same second get the same access token; the record is the same too.
    this.#access.set(accessJwt, { did, expiresAt: accessExp * 1000 });
    this.#refresh.set(jti, { did, scope, expiresAt: refreshExp * 1000, revoked: false });
    return { accessJwt, refreshJwt };
  }

  /** The caller of an access-token call: its DID and scope, or the PDS's refusal. */
  verifyAccess(authorization: string | undefined): { did: string; scope: string } {
    const token = bearer(authorization);
    const claims = this.#verify(token, 'at+jwt');
    const scope = claims?.scope;
    if (!claims || typeof claims.sub !== 'string' || typeof scope !== 'string' || !ACCESS_SCOPES.has(scope)) {
      throw new XrpcError(400, 'InvalidToken', 'Token could not be verified');
    }
    const record = this.#access.get(token);
    const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : 0;
    if (exp <= this.#now() || (record && record.expiresAt <= this.#now())) throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
    return { did: claims.sub, scope };
  }

  #refreshRecord(authorization: string | undefined): { jti: string; record: RefreshRecord } {
    const claims = this.#verify(bearer(authorization), 'refresh+jwt');
    const jti = claims?.jti;
    const record = typeof jti === 'string' ? this.#refresh.get(jti) : undefined;
    if (!claims || typeof jti !== 'string' || !record) throw new XrpcError(400, 'InvalidToken', 'Token could not be verified');
    if (record.expiresAt <= this.#now()) throw new XrpcError(400, 'ExpiredToken', 'Token has expired');
    if (record.revoked) throw new XrpcError(400, 'ExpiredToken', 'Token has been revoked');
    return { jti, record };
  }

  /** refreshSession: a new pair; the old token, used again within the grace period, answers the same pair. */
  rotate(authorization: string | undefined): { did: string; pair: SessionPair } {
    const { record } = this.#refreshRecord(authorization);
    if (record.next) {
      if (this.#now() - (record.rotatedAt ?? 0) < SESSION.refreshGraceMs) return { did: record.did, pair: record.next };
      throw new XrpcError(400, 'ExpiredToken', 'Token has been revoked');
    }
    record.next = this.create(record.did, record.scope);
    record.rotatedAt = this.#now();
    return { did: record.did, pair: record.next };
  }

  /** deleteSession: that refresh token (and what it was rotated into) stops working. */
  end(authorization: string | undefined): void {
    const { record } = this.#refreshRecord(authorization);
    record.revoked = true;
  }

  /** Test control: makes the current access tokens (of one DID, or all) expired now. */
  override expireAccessTokens(did?: string): number {
    const now = this.#now();
    let n = 0;
    for (const record of this.#access.values()) {
      if ((!did || record.did === did) && record.expiresAt > now) {
        record.expiresAt = now - 1;
        n++;
      }
    }
    return n;
  }

  /** Every refresh token of a DID dies (the app password was revoked). */
  override revokeUser(did: string): number {
    let n = 0;
    for (const record of this.#refresh.values()) {
      if (record.did === did && !record.revoked) {
        record.revoked = true;
        n++;
      }
    }
    return n;
  }

  override reset(): void {
    super.reset();
    this.#refresh.clear();
    this.#access.clear();
  }
}

function bearer(authorization: string | undefined): string {
  if (!authorization) throw new XrpcError(401, 'AuthMissing', 'Authentication Required');
  const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!m) throw new XrpcError(400, 'InvalidToken', 'Unexpected authorization type');
  return m[1]!;
}
