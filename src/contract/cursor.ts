// Opaque keyset cursors for every list (posts, media, webhook deliveries): the (createdAt, id) of the last
// item of a page. Stable while items are being created, because new ones sort before every cursor handed out.

export interface Cursor {
  createdAt: number;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

export function decodeCursor(text: string): Cursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value as [unknown, unknown];
    if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || typeof id !== 'string' || id.length > 100) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
