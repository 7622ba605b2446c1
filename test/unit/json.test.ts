// Request fingerprints: canonicalJson sorts object keys at every depth and is otherwise JSON.stringify.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson } from '../../src/lib/json.ts';

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
  return value;
}

test('canonicalJson is JSON with sorted keys, and key order does not change it', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)), 'the same value');
      assert.equal(canonicalJson(reversed(value)), text, 'whatever the key order');
      assert.equal(canonicalJson(JSON.parse(text)), text, 'stable');
    }),
    { numRuns: 2000 },
  );
  assert.equal(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], e: undefined }), '{"a":[{"c":"x","d":null}],"b":1}');
  // Sorted as strings, integer-like keys included (JavaScript itself puts those first).
  assert.equal(canonicalJson({ b: 0, '10': 1, '': 2, '9': 3 }), '{"":2,"10":1,"9":3,"b":0}');
});
