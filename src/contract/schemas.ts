// Schemas shared by many routes: error shapes and small building blocks.
import Type from 'typebox';
import { Nullable } from '../lib/schema.ts';
import { component, ref } from './components.ts';

export { Nullable, StringEnum } from '../lib/schema.ts';

/** Shape A, named in the OpenAPI document; routes use `ErrorA`, a reference to it. */
export const ErrorASchema = component('ErrorA', Type.Object(
  {
    error: Type.String({ description: 'Human-readable explanation.' }),
    code: Type.String({ description: 'Machine-readable code, upper case.' }),
    param: Type.Optional(Type.String({ description: 'The offending field, e.g. platforms[1].accountId.' })),
    details: Type.Optional(Type.Unknown()),
  },
  { description: 'Shape A error (every endpoint except POST /v1/posts).' },
));
export const ErrorA = ref(ErrorASchema);

export const ErrorBSchema = component('ErrorB', Type.Object(
  {
    error: Type.String(),
    type: Type.String({ description: 'invalid_request_error, authentication_error or idempotency_error.' }),
    code: Type.String({ description: 'Machine-readable code, lower case.' }),
    param: Nullable(Type.String({ description: 'The offending field.' })),
  },
  { description: 'Shape B error (POST /v1/posts).' },
));
export const ErrorB = ref(ErrorBSchema);

export const IsoTime = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' });
export const NullableIsoTime = Nullable(IsoTime);

/** The error responses every authenticated shape-A route can give. */
export const commonErrorsA = {
  400: ErrorA,
  401: ErrorA,
  404: ErrorA,
  413: ErrorA,
  415: ErrorA,
  429: ErrorA,
  500: ErrorA,
};
