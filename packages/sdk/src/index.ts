// @herald/sdk: a typed client for Herald's API, and webhook verification.
export { createHerald } from './client.ts';
export type * from './client.ts';
export {
  AuthenticationError,
  ConflictError,
  HeraldApiError,
  HeraldConnectionError,
  HeraldError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  type ErrorBody,
} from './errors.ts';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookEvent } from './webhooks.ts';
export type { RetryOptions } from './transport.ts';
export type { components, operations, paths, webhooks } from './schema.ts';
