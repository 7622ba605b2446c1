// Reading (not verifying: the PDS signed them for itself) the claims of a session's JWTs, for the token's
// expiry and scope.

export interface JwtClaims {
  exp?: number;
  iat?: number;
  scope?: string;
  sub?: string;
}

export function jwtClaims(token: string): JwtClaims {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
    const out: JwtClaims = {};
    if (typeof claims.exp === 'number') out.exp = claims.exp;
    if (typeof claims.iat === 'number') out.iat = claims.iat;
    if (typeof claims.scope === 'string') out.scope = claims.scope;
    if (typeof claims.sub === 'string') out.sub = claims.sub;
    return out;
  } catch {
    return {};
  }
}

/** The token's expiry in epoch ms, or null when it carries none. */
export function jwtExpiresAt(token: string): number | null {
  const { exp } = jwtClaims(token);
  return exp === undefined ? null : exp * 1000;
}
