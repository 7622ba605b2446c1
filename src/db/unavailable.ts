// Whether an error means the database cannot serve right now (unreachable, restarting, out of connections
// or disk), as opposed to a bug. The API answers those 503 DATABASE_UNAVAILABLE with Retry-After, so a
// client waits and tries again (with the same Idempotency-Key) instead of reading a 500 as Herald's fault.

/** SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources, 57P01–57P03 shutdown / cannot connect now. */
const PG_CLASSES = ['08', '53'];
const PG_CODES = new Set(['57P01', '57P02', '57P03']);
/** The socket to PostgreSQL failed. */
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-postgres reports a lost or unobtainable connection with these messages and no code. */
const PG_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable/i;
/** SQLite: another process holds the lock past the busy timeout, the disk is full, or I/O failed. */
const SQLITE_CODES = /^SQLITE_(BUSY|FULL|IOERR|CANTOPEN)/;

function unavailableItself(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NET_CODES.has(code) || PG_CODES.has(code) || SQLITE_CODES.test(code)) return true;
    if (code.length === 5 && PG_CLASSES.includes(code.slice(0, 2))) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.test(message);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  // A driver error may arrive wrapped (a cause, or an AggregateError of the connection attempts).
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (unavailableItself(e)) return true;
    if (e instanceof AggregateError && e.errors.some(unavailableItself)) return true;
  }
  return false;
}
