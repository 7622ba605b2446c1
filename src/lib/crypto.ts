// Secrets at rest. API keys are stored as SHA-256 hashes; platform tokens, PKCE verifiers and webhook
// secrets are sealed with AES-256-GCM, the row they belong to bound in as additional data so that a
// ciphertext copied into another row (or column) fails to open.
import { createCipheriv, createDecipheriv, createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string | Buffer): string {
  // The one-shot form: no Hash object per call (this runs on every authenticated request).
  return hash('sha256', value, 'hex');
}

/** The PKCE S256 code challenge of a verifier (RFC 7636 section 4.2). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export interface SecretBox {
  /** `context` names where the secret lives, e.g. "accounts:acc_123:access_token". */
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new SecretBoxError('not a sealed secret');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('secret does not open with this key in this place');
      }
    },
  };
}
