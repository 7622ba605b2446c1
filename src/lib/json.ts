// JSON helpers for columns stored as text (one representation on SQLite and PostgreSQL).

/**
 * Serialises a JSON value (a parsed request body) with object keys sorted, so equal values give equal
 * strings (request fingerprints). Built directly rather than through a JSON.stringify replacer, which
 * copies every object to sort it: this runs on every request with an Idempotency-Key.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(record[key])}`;
  }
  return `${out}}`;
}

export function toJson(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}

/**
 * The path (as `param`: `a.b[0].c`, '' for the whole body) of the first string or key of a parsed JSON
 * value that holds U+0000, or null. PostgreSQL's text cannot store that character.
 */
export function nulStringIn(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulStringIn(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = nulStringIn(child, here);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The first key of a JSON text that could poison prototypes, with its path (as `param`: `a.b[0].c`):
 * a `__proto__` key, or a `constructor` key whose value holds `prototype`. Null when the text has none,
 * or is not JSON at all.
 */
export function forbiddenKeyIn(text: string): { key: '__proto__' | 'constructor'; path: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const walk = (v: unknown, path: string): { key: '__proto__' | 'constructor'; path: string } | null => {
    if (v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${path}[${i}]`);
        if (found) return found;
      }
      return null;
    }
    for (const [key, child] of Object.entries(v)) {
      const here = path ? `${path}.${key}` : key;
      if (key === '__proto__') return { key, path: here };
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return { key, path: here };
      const found = walk(child, here);
      if (found) return found;
    }
    return null;
  };
  return walk(value, '');
}
