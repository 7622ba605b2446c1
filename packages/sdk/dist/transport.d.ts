export interface RetryOptions {
    /** Retries after the first attempt (default 2). */
    maxRetries: number;
    /** The longest wait before a retry, Retry-After included: a longer Retry-After is not waited for (default 30 s). */
    maxRetryDelayMs: number;
    /** First backoff step (default 250 ms), doubled each retry. */
    baseDelayMs: number;
}
/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export declare function retryAfterMs(response: Response, now?: number): number | null;
export declare function retryingFetch(fetchImpl: (request: Request) => Promise<Response>, options: RetryOptions): (request: Request) => Promise<Response>;
