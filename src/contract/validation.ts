// Schema validation for every route. Bodies are validated strictly (no type coercion, unknown fields
// rejected); query strings and path parameters are coerced from text. Ajv's errors become ApiErrors
// with param paths like `platforms[1].accountId`.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError, errors } from './errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: coerce,
    useDefaults: coerce,
    removeAdditional: false,
    strict: false,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/** Makes a named schema (components.ts) resolvable by `$ref` in every schema compiled afterwards. */
export function addSharedSchema(schema: { $id: string }): void {
  for (const ajv of [bodyAjv, textAjv]) if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema) as ValidateFunction;

/** Compiles a schema for strict validation outside a route (e.g. per-platform settings). */
export function compileStrict<T>(schema: object): ValidateFunction<T> {
  return bodyAjv.compile<T>(schema);
}

/** '/platforms/1/accountId' → 'platforms[1].accountId' (with an optional prefix such as a query name). */
export function toParamPath(instancePath: string, prefix = ''): string {
  let out = prefix;
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out;
}

function join(path: string, child: string): string {
  return path ? `${path}.${child}` : child;
}

function describeAllowed(errs: ErrorObject[], path: string): string | undefined {
  const values = errs
    .filter((e) => e.keyword === 'const' && e.instancePath === path)
    .map((e) => JSON.stringify((e.params as { allowedValue: unknown }).allowedValue));
  return values.length > 0 ? values.join(', ') : undefined;
}

/**
 * Turns the first Ajv error into an ApiError. `where` says which part of the request failed, so messages
 * read "query parameter limit ..." or "platforms[0].platform ...".
 */
export function ajvToApiError(errs: ErrorObject[], where: 'body' | 'querystring' | 'params' | 'headers', paramPrefix = ''): ApiError {
  // anyOf reports each branch first; the anyOf error itself names the real position.
  const anyOf = errs.find((e) => e.keyword === 'anyOf');
  const err = anyOf ?? errs[0]!;
  const base = toParamPath(err.instancePath, paramPrefix);
  const subject = where === 'querystring' ? 'query parameter ' : where === 'params' ? 'path parameter ' : '';
  const p = err.params as Record<string, unknown>;
  const named = (param: string) => `${subject}${param || 'request body'}`;

  switch (err.keyword) {
    case 'required': {
      const param = join(base, String(p.missingProperty));
      return errors.missing(param, `${named(param)} is required`);
    }
    case 'additionalProperties': {
      const param = join(base, String(p.additionalProperty));
      const what = where === 'querystring' ? `query parameter ${String(p.additionalProperty)} is not supported` : `${param} is not a known field`;
      return errors.unknownField(param, what);
    }
    case 'type': {
      if (!base && where === 'body') return errors.invalid(undefined, 'request body must be a JSON object');
      return errors.invalid(base, `${named(base)} must be ${String(p.type).replace(',', ' or ')}`);
    }
    case 'enum':
      return errors.invalid(base, `${named(base)} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
    case 'const':
      return errors.invalid(base, `${named(base)} must be ${JSON.stringify(p.allowedValue)}`);
    case 'anyOf': {
      const allowed = describeAllowed(errs, err.instancePath);
      return errors.invalid(base, allowed ? `${named(base)} must be one of ${allowed}` : `${named(base)} has an invalid value`);
    }
    case 'format':
      return errors.invalid(base, `${named(base)} must be a valid ${String(p.format)}`);
    case 'minLength':
      return Number(p.limit) === 1
        ? errors.invalid(base, `${named(base)} must not be empty`)
        : errors.invalid(base, `${named(base)} must be at least ${String(p.limit)} characters`);
    case 'maxLength':
      return errors.invalid(base, `${named(base)} must be at most ${String(p.limit)} characters`);
    case 'minItems':
      return errors.invalid(base, `${named(base)} must have at least ${String(p.limit)} item(s)`);
    case 'maxItems':
      return errors.invalid(base, `${named(base)} must have at most ${String(p.limit)} items`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return errors.invalid(base, `${named(base)} must be ${String(p.comparison)} ${String(p.limit)}`);
    case 'pattern':
      return errors.invalid(base, `${named(base)} has an invalid format`);
    case 'uniqueItems':
      return errors.invalid(base, `${named(base)} must not contain duplicates`);
    default:
      return errors.invalid(base || undefined, `${named(base)} ${err.message ?? 'is invalid'}`);
  }
}
