// @herald/sdk: a typed client for Herald's API, and webhook verification.
export { createHerald } from "./client.js";
export { AuthenticationError, ConflictError, HeraldApiError, HeraldConnectionError, HeraldError, InvalidRequestError, NotFoundError, RateLimitError, ServerError, } from "./errors.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
