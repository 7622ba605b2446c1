// Authorization codes and tokens for the emulators: single-use codes, PKCE, expiring access tokens,
// rotating refresh tokens, revocation, and forced expiry for tests of the refresh path.
import { randomBytes } from 'node:crypto';
import { pkceChallenge } from '../../lib/crypto.ts';

export interface OAuthServerOptions {
  now: () => number;
  /** Prefix of issued tokens, e.g. "act." for TikTok-looking tokens. */
  tokenPrefix: string;
  codeTtlMs: number;
  accessTtlMs: number | null; // null: never expires (Facebook Page tokens)
  refreshTtlMs: number | null;
  /** Refresh tokens are single use: each refresh returns a new one and kills the old. */
  rotateRefresh: boolean;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken?: string;
  /** Seconds, as the platforms report it; undefined when the token does not expire. */
  expiresIn?: number;
  refreshExpiresIn?: number;
  scopes: string[];
}

export interface CodeRecord {
  userId: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  challenge?: string;
  challengeMethod?: string;
  expiresAt: number;
  used: boolean;
}

export interface TokenRecord {
  userId: string;
  scopes: string[];
  expiresAt: number | null;
  revoked: boolean;
  kind: 'access' | 'refresh';
  /** Free-form data the emulator keeps with a token (e.g. which Page a Page token belongs to). */
  data?: Record<string, unknown>;
}

/** Codes and tokens as saved to disk (kit/persistence.ts). */
export interface OAuthSnapshot {
  codes: [string, CodeRecord][];
  tokens: [string, TokenRecord][];
}

export type AccessCheck =
  | { ok: true; userId: string; scopes: string[]; data?: Record<string, unknown> }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' };

export type CodeRedemption =
  | { ok: true; userId: string; scopes: string[] }
  | { ok: false; error: 'invalid_grant' | 'invalid_request'; description: string };

export class OAuthServer {
  readonly options: OAuthServerOptions;
  #codes = new Map<string, CodeRecord>();
  #tokens = new Map<string, TokenRecord>();

  constructor(options: OAuthServerOptions) {
    this.options = options;
  }

  #token(kind: 'access' | 'refresh'): string {
    return `${this.options.tokenPrefix}${kind === 'refresh' ? 'r' : 'a'}.${randomBytes(24).toString('base64url')}`;
  }

  issueCode(input: Omit<CodeRecord, 'expiresAt' | 'used'>): string {
    const code = randomBytes(18).toString('base64url');
    this.#codes.set(code, { ...input, expiresAt: this.options.now() + this.options.codeTtlMs, used: false });
    return code;
  }

  redeemCode(code: string, input: { clientId?: string; redirectUri?: string; codeVerifier?: string }): CodeRedemption {
    const record = this.#codes.get(code);
    if (!record) return { ok: false, error: 'invalid_grant', description: 'authorization code is invalid' };
    if (record.used) return { ok: false, error: 'invalid_grant', description: 'authorization code was already used' };
    if (record.expiresAt <= this.options.now()) return { ok: false, error: 'invalid_grant', description: 'authorization code has expired' };
    // RFC 6749 4.1.3: the client that redeems the code is the one it was issued to, and redirect_uri is
    // required (and must be identical) when the authorization request carried one, as it always does here.
    // Not sending them is refused like sending wrong ones: no platform lets a code exchange skip them.
    if (input.clientId === undefined || input.clientId === '') return { ok: false, error: 'invalid_request', description: 'client_id is required' };
    if (input.clientId !== record.clientId) {
      return { ok: false, error: 'invalid_grant', description: 'authorization code was issued to another client' };
    }
    if (input.redirectUri === undefined || input.redirectUri === '') return { ok: false, error: 'invalid_request', description: 'redirect_uri is required' };
    if (input.redirectUri !== record.redirectUri) {
      return { ok: false, error: 'invalid_grant', description: 'redirect_uri does not match the authorization request' };
    }
    if (record.challenge) {
      if (!input.codeVerifier) return { ok: false, error: 'invalid_request', description: 'code_verifier is required' };
      const expected = record.challengeMethod?.toLowerCase() === 'plain' ? input.codeVerifier : pkceChallenge(input.codeVerifier);
      if (expected !== record.challenge) return { ok: false, error: 'invalid_grant', description: 'code_verifier does not match' };
    }
    record.used = true;
    return { ok: true, userId: record.userId, scopes: record.scopes };
  }

  issueTokens(
    userId: string,
    scopes: string[],
    opts: { withRefresh: boolean; accessTtlMs?: number | null; data?: Record<string, unknown> },
  ): IssuedTokens {
    const now = this.options.now();
    const accessTtl = opts.accessTtlMs === undefined ? this.options.accessTtlMs : opts.accessTtlMs;
    const accessToken = this.#token('access');
    this.#tokens.set(accessToken, {
      userId,
      scopes,
      kind: 'access',
      revoked: false,
      expiresAt: accessTtl === null ? null : now + accessTtl,
      data: opts.data,
    });
    const out: IssuedTokens = { accessToken, scopes };
    if (accessTtl !== null) out.expiresIn = Math.round(accessTtl / 1000);
    if (opts.withRefresh) {
      const refreshToken = this.#token('refresh');
      const ttl = this.options.refreshTtlMs;
      this.#tokens.set(refreshToken, { userId, scopes, kind: 'refresh', revoked: false, expiresAt: ttl === null ? null : now + ttl, data: opts.data });
      out.refreshToken = refreshToken;
      if (ttl !== null) out.refreshExpiresIn = Math.round(ttl / 1000);
    }
    return out;
  }

  checkAccess(token: string | undefined | null): AccessCheck {
    if (!token) return { ok: false, reason: 'missing' };
    const record = this.#tokens.get(token);
    if (!record || record.kind !== 'access') return { ok: false, reason: 'invalid' };
    if (record.revoked) return { ok: false, reason: 'revoked' };
    if (record.expiresAt !== null && record.expiresAt <= this.options.now()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: record.userId, scopes: record.scopes, data: record.data };
  }

  /** Details of a token whatever its state (for debug_token-style introspection). */
  inspect(token: string): (TokenRecord & { valid: boolean }) | undefined {
    const record = this.#tokens.get(token);
    if (!record) return undefined;
    const valid = !record.revoked && (record.expiresAt === null || record.expiresAt > this.options.now());
    return { ...record, valid };
  }

  /** Uses a refresh token; with rotation the old one dies and a new pair is returned. */
  refresh(refreshToken: string, opts: { data?: Record<string, unknown> } = {}): { ok: true; tokens: IssuedTokens } | { ok: false; description: string } {
    const record = this.#tokens.get(refreshToken);
    if (!record || record.kind !== 'refresh') return { ok: false, description: 'refresh token is invalid' };
    if (record.revoked) return { ok: false, description: 'refresh token was revoked' };
    if (record.expiresAt !== null && record.expiresAt <= this.options.now()) return { ok: false, description: 'refresh token has expired' };
    if (this.options.rotateRefresh) record.revoked = true;
    const tokens = this.issueTokens(record.userId, record.scopes, { withRefresh: this.options.rotateRefresh, data: opts.data ?? record.data });
    if (!this.options.rotateRefresh) tokens.refreshToken = refreshToken;
    return { ok: true, tokens };
  }

  /**
   * Exchanges a still-valid access token for a new one with another lifetime (Meta's long-lived
   * token exchange and its refresh_access_token calls).
   */
  exchange(accessToken: string, ttlMs: number | null): { ok: true; tokens: IssuedTokens } | { ok: false; reason: string } {
    const check = this.checkAccess(accessToken);
    if (!check.ok) return { ok: false, reason: check.reason };
    return { ok: true, tokens: this.issueTokens(check.userId, check.scopes, { withRefresh: false, accessTtlMs: ttlMs, data: check.data }) };
  }

  revoke(token: string): boolean {
    const record = this.#tokens.get(token);
    if (!record) return false;
    record.revoked = true;
    return true;
  }

  /** Revokes every token of a user (an app grant removed). */
  revokeUser(userId: string): number {
    let n = 0;
    for (const record of this.#tokens.values()) {
      if (record.userId === userId && !record.revoked) {
        record.revoked = true;
        n++;
      }
    }
    return n;
  }

  /** Test control: makes the current access tokens (of one user, or all) expired now. */
  expireAccessTokens(userId?: string): number {
    const now = this.options.now();
    let n = 0;
    for (const record of this.#tokens.values()) {
      if (record.kind === 'access' && (!userId || record.userId === userId) && (record.expiresAt === null || record.expiresAt > now)) {
        record.expiresAt = now - 1;
        n++;
      }
    }
    return n;
  }

  /**
   * What is worth saving: unused, unexpired codes and unexpired tokens (revoked ones too, so they keep
   * failing as revoked), at most `maxTokens` of them: revoked ones go first, then the oldest.
   */
  snapshot(maxTokens = Number.POSITIVE_INFINITY): OAuthSnapshot {
    const now = this.options.now();
    const codes = [...this.#codes].filter(([, c]) => !c.used && c.expiresAt > now);
    let tokens = [...this.#tokens].filter(([, t]) => t.expiresAt === null || t.expiresAt > now);
    if (tokens.length > maxTokens) {
      const revoked = tokens.filter(([, t]) => t.revoked);
      const drop = new Set(revoked.slice(0, Math.min(revoked.length, tokens.length - maxTokens)).map(([k]) => k));
      tokens = tokens.filter(([k]) => !drop.has(k));
      if (tokens.length > maxTokens) tokens = tokens.slice(tokens.length - maxTokens);
    }
    return { codes: codes.map(([k, c]) => [k, { ...c }]), tokens: tokens.map(([k, t]) => [k, { ...t }]) };
  }

  /** Replaces codes and tokens with saved ones. */
  restore(snapshot: OAuthSnapshot): void {
    this.#codes = new Map(snapshot.codes.map(([k, c]) => [k, { ...c }]));
    this.#tokens = new Map(snapshot.tokens.map(([k, t]) => [k, { ...t }]));
  }

  reset(): void {
    this.#codes.clear();
    this.#tokens.clear();
  }
}
