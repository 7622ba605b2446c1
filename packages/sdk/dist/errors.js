// Errors the client throws. Every answer of Herald's API that is not a success becomes a HeraldApiError
// (or a subclass by status) carrying the error body's fields, shape A ({error, code, param?, details?})
// or shape B ({error, type, code, param}, POST /v1/posts), and the request id to quote when asking why.
export class HeraldError extends Error {
    name = 'HeraldError';
}
export class HeraldApiError extends HeraldError {
    name = 'HeraldApiError';
    /** The HTTP status. */
    status;
    /** Shape A: UPPER_CASE; shape B: lower_case. */
    code;
    /** Shape B's error type (invalid_request_error, authentication_error, idempotency_error); absent in shape A. */
    type;
    /** The offending field or header, e.g. `platforms[1].accountId`, `Idempotency-Key`. */
    param;
    details;
    /** Herald's X-Request-Id of the failed request. */
    requestId;
    method;
    url;
    headers;
    constructor(init) {
        super(init.body.error);
        this.status = init.status;
        this.code = init.body.code;
        this.type = init.body.type;
        this.param = init.body.param;
        this.details = init.body.details;
        this.requestId = init.requestId;
        this.method = init.method;
        this.url = init.url;
        this.headers = init.headers;
    }
    /** The error body, as Herald sent it. */
    toJSON() {
        const body = { status: this.status, error: this.message, code: this.code, requestId: this.requestId };
        if (this.type !== undefined)
            body.type = this.type;
        if (this.param !== undefined)
            body.param = this.param;
        if (this.details !== undefined)
            body.details = this.details;
        return body;
    }
}
/** 400, 413, 415, 422: the request is wrong; `param` names what. */
export class InvalidRequestError extends HeraldApiError {
    name = 'InvalidRequestError';
}
/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends HeraldApiError {
    name = 'AuthenticationError';
}
/** 404: no such resource for this key. */
export class NotFoundError extends HeraldApiError {
    name = 'NotFoundError';
}
/** 409 and 412: the resource's state (or the idempotency key in flight) conflicts with the request. */
export class ConflictError extends HeraldApiError {
    name = 'ConflictError';
}
/** 429: over the key's rate limit; `retryAfterSeconds` from Retry-After. */
export class RateLimitError extends HeraldApiError {
    name = 'RateLimitError';
    get retryAfterSeconds() {
        const v = Number(this.headers.get('retry-after'));
        return Number.isFinite(v) && v >= 0 ? v : null;
    }
}
/** 5xx: Herald or a platform failed (502 PLATFORM_ERROR, 503 STORAGE_UNAVAILABLE, 500 INTERNAL_ERROR). */
export class ServerError extends HeraldApiError {
    name = 'ServerError';
}
/** No answer at all (connection refused or cut, DNS, time-out): whether the request was applied is unknown. */
export class HeraldConnectionError extends HeraldError {
    name = 'HeraldConnectionError';
    method;
    url;
    constructor(method, url, cause) {
        super(`${method} ${url}: no answer from Herald (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
        this.method = method;
        this.url = url;
    }
}
function classFor(status) {
    if (status === 401)
        return AuthenticationError;
    if (status === 404)
        return NotFoundError;
    if (status === 409 || status === 412)
        return ConflictError;
    if (status === 429)
        return RateLimitError;
    if (status >= 500)
        return ServerError;
    if (status >= 400)
        return InvalidRequestError;
    return HeraldApiError;
}
/** The error for a non-2xx answer, from its body (parsed JSON, or the text when it was not JSON). */
export function apiError(response, method, payload) {
    let body;
    if (payload && typeof payload === 'object') {
        const parsed = payload;
        body = {
            ...parsed,
            error: typeof parsed.error === 'string' ? parsed.error : `HTTP ${response.status}`,
            code: typeof parsed.code === 'string' ? parsed.code : `HTTP_${response.status}`,
        };
    }
    else {
        body = { error: String(payload ?? '').slice(0, 500) || `HTTP ${response.status}`, code: `HTTP_${response.status}` };
    }
    const Class = classFor(response.status);
    return new Class({ status: response.status, body, requestId: response.headers.get('x-request-id'), method, url: response.url, headers: response.headers });
}
