// docs/webhooks.md shows every event's payload as the catalog defines it. When the catalog changes,
// run this file with UPDATE_DOCS=1 to rewrite the section between the markers.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EVENT_NAMES } from '../../../src/events/catalog.ts';
import { eventsMarkdown, openApiWebhooks } from '../../../src/events/describe.ts';

const DOC = join(import.meta.dirname, '../../../docs/webhooks.md');
const BEGIN = '<!-- events:begin -->';
const END = '<!-- events:end -->';

test('docs/webhooks.md describes every event from the catalog', () => {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  assert.ok(start !== -1 && end > start, 'docs/webhooks.md lost its event markers');
  const expected = `${BEGIN}\n${eventsMarkdown()}\n${END}`;
  const actual = text.slice(start, end + END.length);
  if (actual !== expected && process.env.UPDATE_DOCS === '1') {
    writeFileSync(DOC, text.slice(0, start) + expected + text.slice(end + END.length));
    return;
  }
  assert.equal(actual, expected, 'the event section is stale: run this test with UPDATE_DOCS=1');
});

test('the OpenAPI webhooks section has every event with its payload schema', () => {
  const hooks = openApiWebhooks() as Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: { data: unknown } } }> } } }>;
  assert.deepEqual(Object.keys(hooks), EVENT_NAMES);
  for (const name of EVENT_NAMES) assert.ok(hooks[name]!.post.requestBody.content['application/json']!.schema.properties.data);
});
