// Descriptions of the event catalog for readers: the OpenAPI document's `webhooks` section and the
// payload table of docs/webhooks.md are both made from the catalog's schemas, so they cannot drift.
import { EVENT_CATALOG, EVENT_NAMES, type EventName } from './catalog.ts';

/** The body Herald POSTs for an event: the envelope with the event's own `data` schema. */
function envelope(name: EventName) {
  return {
    type: 'object',
    required: ['id', 'event', 'timestamp', 'data'],
    properties: {
      id: { type: 'string', description: 'Event id (evt_…), the same on every delivery attempt: dedupe on it.' },
      event: { type: 'string', const: name },
      timestamp: { type: 'string', format: 'date-time' },
      data: EVENT_CATALOG[name].schema,
    },
  };
}

/** OpenAPI 3.1 `webhooks`: one entry per event, the request Herald sends and the answer it expects. */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      {
        post: {
          operationId: `${name.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())}Event`,
          summary: EVENT_CATALOG[name].when,
          security: [{ heraldSignature: [] }],
          description:
            'Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.',
          requestBody: { required: true, content: { 'application/json': { schema: envelope(name) } } },
          responses: { '2XX': { description: 'Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL.' } },
        },
      },
    ]),
  );
}

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  format?: string;
}

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return `array of ${s.items?.properties ? 'objects' : typeOf(s.items ?? {})}`;
  if (s.format === 'date-time') return 'ISO 8601 time';
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

/** The markdown table of every event's payload, as docs/webhooks.md shows it between its markers. */
export function eventsMarkdown(): string {
  const lines: string[] = [];
  for (const name of EVENT_NAMES) {
    const { when, schema } = EVENT_CATALOG[name];
    const s = schema as JsonSchema;
    lines.push(`### \`${name}\``, '', when, '', '| Field | Type | |', '|---|---|---|');
    for (const [field, prop] of Object.entries(s.properties ?? {})) {
      const optional = s.required?.includes(field) ? '' : ' (optional)';
      lines.push(`| \`${field}\` | ${typeOf(prop)}${optional} | ${prop.description ?? ''} |`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
