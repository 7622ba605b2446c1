// Reading fields out of a platform's JSON answer without trusting its shape: a field of the wrong type is
// absent, never a crash. Shared by the adapters; each platform's own quirks (ids as digit strings,
// int64 values) stay in its folder.
import type { PlatformFailure } from './types.ts';

/** A non-empty string, else undefined. */
export function asString(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** A finite number, or a digit string read as one, else undefined. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** True when `value` is a PlatformFailure (the `{ ok: false }` side of a call's result). */
export function isFailure(value: unknown): value is PlatformFailure {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}
