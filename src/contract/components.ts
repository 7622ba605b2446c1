// Named schemas: each one validates (Ajv), types the code (TypeBox) and documents the API (a component
// of /openapi.json that the SDK's types are generated from). A named schema is defined once with
// `component(name, schema)` and used everywhere else through `ref(it)`, which is typed as the schema
// and written as {"$ref": name}: Fastify's serialiser, Herald's validators and @fastify/swagger all
// resolve that name to the one definition.
import Type, { type Static, type TSchema } from 'typebox';
import { addSharedSchema } from './validation.ts';

const named = new Map<string, TSchema & { $id: string }>();

/** Names `schema` (a copy of it carries `$id: name`); use it through `ref()`. */
export function component<T extends TSchema>(name: string, schema: T): T & { $id: string } {
  if (named.has(name)) throw new Error(`schema ${name} is named twice`);
  const withId = { ...schema, $id: name } as T & { $id: string };
  named.set(name, withId);
  addSharedSchema(withId);
  return withId;
}

/** The named schema a {"$ref": name} stands for. */
export function namedSchema(name: string): TSchema | undefined {
  return named.get(name);
}

/** A reference to a named schema: typed as that schema, written as {"$ref": name}. */
export function ref<T extends TSchema & { $id: string }>(schema: T, options: { description?: string } = {}) {
  return Type.Unsafe<Static<T>>({ $ref: schema.$id, ...options });
}

/**
 * Every named schema, for Fastify's addSchema (serialiser and OpenAPI document), by name: the document
 * lists them in this order, which must not depend on the order modules happen to be imported in.
 */
export function namedSchemas(): (TSchema & { $id: string })[] {
  return [...named.values()].sort((a, b) => a.$id.localeCompare(b.$id));
}

/**
 * A self-contained copy of `schema`: every reference to a named schema replaced by that schema (without
 * its `$id`). For consumers that get no shared schemas: other Ajv instances, MCP tool input schemas.
 */
export function inlineRefs<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') {
      const target = named.get(obj.$ref);
      if (!target) throw new Error(`no named schema ${obj.$ref}`);
      const { $ref: _ref, ...siblings } = obj;
      const { $id: _id, ...body } = walk(target) as Record<string, unknown>;
      return { ...body, ...siblings };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (k !== '$id') out[k] = walk(v);
    return out;
  };
  return walk(schema) as T;
}

/** `obj` with references to named schemas written as OpenAPI component references (for parts of the
 * document @fastify/swagger does not rewrite, such as `webhooks`). */
export function componentRefs<T>(obj: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && named.has(v) ? `#/components/schemas/${v}` : walk(v);
    return out;
  };
  return walk(obj) as T;
}
