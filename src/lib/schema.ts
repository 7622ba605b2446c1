// Schema helpers shared by every boundary (HTTP, platform settings).
import Type, { type Static, type TSchema } from 'typebox';

/**
 * A nullable schema written as a type array. Responses are serialised by fast-json-stringify, which
 * writes a type array directly but has to validate each value against every branch of an anyOf.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: string }).type;
  if (!type) throw new Error('Nullable needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

/** A string enum with its type spelled out (for the serialiser and the OpenAPI document). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
