/** The fields of an error answer, whichever shape it had. */
export interface ErrorBody {
    error: string;
    code: string;
    /** Shape B only (POST /v1/posts, and PATCH's create checks). */
    type?: string;
    param?: string | null;
    details?: unknown;
}
export declare class HeraldError extends Error {
    name: string;
}
export declare class HeraldApiError extends HeraldError {
    name: string;
    /** The HTTP status. */
    readonly status: number;
    /** Shape A: UPPER_CASE; shape B: lower_case. */
    readonly code: string;
    /** Shape B's error type (invalid_request_error, authentication_error, idempotency_error); absent in shape A. */
    readonly type: string | undefined;
    /** The offending field or header, e.g. `platforms[1].accountId`, `Idempotency-Key`. */
    readonly param: string | null | undefined;
    readonly details: unknown;
    /** Herald's X-Request-Id of the failed request. */
    readonly requestId: string | null;
    readonly method: string;
    readonly url: string;
    readonly headers: Headers;
    constructor(init: {
        status: number;
        body: ErrorBody;
        requestId: string | null;
        method: string;
        url: string;
        headers: Headers;
    });
    /** The error body, as Herald sent it. */
    toJSON(): ErrorBody & {
        status: number;
        requestId: string | null;
    };
}
/** 400, 413, 415, 422: the request is wrong; `param` names what. */
export declare class InvalidRequestError extends HeraldApiError {
    name: string;
}
/** 401: the API key is missing, unknown or revoked. */
export declare class AuthenticationError extends HeraldApiError {
    name: string;
}
/** 404: no such resource for this key. */
export declare class NotFoundError extends HeraldApiError {
    name: string;
}
/** 409 and 412: the resource's state (or the idempotency key in flight) conflicts with the request. */
export declare class ConflictError extends HeraldApiError {
    name: string;
}
/** 429: over the key's rate limit; `retryAfterSeconds` from Retry-After. */
export declare class RateLimitError extends HeraldApiError {
    name: string;
    get retryAfterSeconds(): number | null;
}
/** 5xx: Herald or a platform failed (502 PLATFORM_ERROR, 503 STORAGE_UNAVAILABLE, 500 INTERNAL_ERROR). */
export declare class ServerError extends HeraldApiError {
    name: string;
}
/** No answer at all (connection refused or cut, DNS, time-out): whether the request was applied is unknown. */
export declare class HeraldConnectionError extends HeraldError {
    name: string;
    readonly method: string;
    readonly url: string;
    constructor(method: string, url: string, cause: unknown);
}
/** The error for a non-2xx answer, from its body (parsed JSON, or the text when it was not JSON). */
export declare function apiError(response: Response, method: string, payload: unknown): HeraldApiError;
