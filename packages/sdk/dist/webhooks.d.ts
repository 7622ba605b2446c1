export declare class WebhookVerificationError extends Error {
    name: string;
}
export interface WebhookEvent<T = Record<string, unknown>> {
    id: string;
    event: string;
    timestamp: string;
    data: T;
}
export interface VerifyOptions {
    /**
     * `standard` (default): the Standard Webhooks headers must be there and valid, timestamp included, and
     * X-Herald-Signature, when present, must match too. `herald`: only X-Herald-Signature (for a proxy that
     * drops other headers; it gives no replay protection).
     */
    scheme?: 'standard' | 'herald';
    /** How far webhook-timestamp may be from now, in seconds (default 300). */
    toleranceSeconds?: number;
    /** The current time in ms (default Date.now()). */
    now?: number;
}
type HeaderSource = Headers | Record<string, string | string[] | undefined>;
/**
 * Checks that a webhook request came from Herald, over the raw body exactly as received (before any
 * JSON parsing), and returns the parsed event. Throws WebhookVerificationError otherwise.
 */
export declare function verifyWebhook<T = Record<string, unknown>>(rawBody: string | Uint8Array | ArrayBuffer, headers: HeaderSource, secret: string, options?: VerifyOptions): Promise<WebhookEvent<T>>;
export {};
