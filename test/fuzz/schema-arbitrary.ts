// JSON Schema → fast-check arbitraries, for the subset Herald's route schemas use (object, array,
// string with enum/format/length/pattern, integer, number, boolean, null, type arrays, anyOf).
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

const FORMAT_SAMPLES: Record<string, fc.Arbitrary<string>> = {
  uri: fc.constantFrom('https://example.com/a.jpg', 'http://127.0.0.1:1/x.mp4', 'https://cdn.example.org/v/1.mp4'),
  'date-time': fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
};

/** Characters that are valid JSON but trouble somewhere: NUL (PostgreSQL text), a lone surrogate, RTL override, BOM, NEL. */
const AWKWARD = ['\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '\u0085', '\uffff', '\r\n'];

/** Values valid against the schema (as far as this subset goes). */
export function arbitraryFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => arbitraryFor(s, depth)));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => arbitraryFor({ ...schema, type: t }, depth)));
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? -1000, max: (schema.maximum as number) ?? 100_000 });
    case 'number':
      return fc.double({ min: (schema.minimum as number) ?? -1000, max: (schema.maximum as number) ?? 100_000, noNaN: true });
    case 'string': {
      const format = schema.format as string | undefined;
      if (format && FORMAT_SAMPLES[format]) return FORMAT_SAMPLES[format]!;
      if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^[Hh][Tt][Tt][Pp]')) return FORMAT_SAMPLES.uri!;
      const minLength = (schema.minLength as number) ?? 0;
      const maxLength = Math.min((schema.maxLength as number) ?? 40, 40);
      const lengths = { minLength, maxLength: Math.max(minLength, maxLength) };
      // Mostly printable text; now and then any code point, or one a database or a platform chokes on.
      const ways: fc.WeightedArbitrary<string>[] = [
        { weight: 8, arbitrary: fc.string(lengths) },
        { weight: 1, arbitrary: fc.string({ ...lengths, unit: 'binary' }) },
      ];
      if (lengths.maxLength >= 1) {
        const rest = fc.string({ minLength: Math.max(0, minLength - 1), maxLength: lengths.maxLength - 1 });
        ways.push({ weight: 1, arbitrary: fc.tuple(fc.constantFrom(...AWKWARD), rest).map(([c, s]) => c + s) });
      }
      return fc.oneof(...ways);
    }
    case 'array': {
      const items = (schema.items as Schema) ?? {};
      const maxLength = Math.min((schema.maxItems as number) ?? 4, depth > 1 ? 1 : 4);
      return fc.array(arbitraryFor(items, depth + 1), { minLength: (schema.minItems as number) ?? 0, maxLength });
    }
    case 'object': {
      const props = (schema.properties as Record<string, Schema>) ?? {};
      const required = new Set((schema.required as string[]) ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) record[k] = arbitraryFor(s, depth + 1);
      if (Object.keys(props).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Turns a valid value into one that breaks the schema in one of the usual ways. */
export function invalidFor(schema: Schema): fc.Arbitrary<unknown> {
  const valid = arbitraryFor(schema);
  const props = (schema.properties as Record<string, Schema>) ?? {};
  const required = (schema.required as string[]) ?? [];
  const ways: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, 42, 'text', [], true),
  ];
  if (schema.type === 'object') {
    ways.push(valid.map((v) => ({ ...(v as object), unexpectedField: 1 })));
    if (required.length > 0) {
      ways.push(valid.chain((v) => fc.constantFrom(...required).map((k) => { const copy = { ...(v as Record<string, unknown>) }; delete copy[k]; return copy; })));
    }
    const keys = Object.keys(props);
    if (keys.length > 0) {
      ways.push(
        valid.chain((v) =>
          fc.tuple(fc.constantFrom(...keys), fc.constantFrom<unknown>(null, 12345, 'x'.repeat(5000), { nested: true }, [1, 2], -1, '')).map(([k, bad]) => ({
            ...(v as Record<string, unknown>),
            [k]: bad,
          })),
        ),
      );
    }
  }
  return fc.oneof(...ways);
}
