// Verifying Herald's webhook requests with Web Crypto only (Node 20+, Deno, Bun, browsers, workers).
//   X-Herald-Signature   lowercase hex HMAC-SHA256 of the raw body, keyed with the secret string's bytes.
//   webhook-id, webhook-timestamp, webhook-signature   Standard Webhooks: "v1,<base64 HMAC-SHA256 of
//   'id.timestamp.body'>" keyed with the base64-decoded part of the secret after "whsec_"; the timestamp
//   must be within the tolerance (5 minutes) of now, which stops a captured request being replayed later.
export class WebhookVerificationError extends Error {
    name = 'WebhookVerificationError';
}
function header(headers, name) {
    if (typeof headers.get === 'function')
        return headers.get(name) ?? undefined;
    const record = headers;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    const value = key === undefined ? undefined : record[key];
    return Array.isArray(value) ? value[0] : value;
}
const encoder = new TextEncoder();
function bytesOf(raw) {
    if (typeof raw === 'string')
        return encoder.encode(raw);
    return raw instanceof Uint8Array ? raw : new Uint8Array(raw);
}
function fromHex(hex) {
    if (!/^(?:[0-9a-f]{2})+$/.test(hex))
        return null;
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++)
        out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    return out;
}
function fromBase64(b64) {
    try {
        const bin = atob(b64);
        const out = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++)
            out[i] = bin.charCodeAt(i);
        return out;
    }
    catch {
        return null;
    }
}
function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
        out.set(p, at);
        at += p.length;
    }
    return out;
}
const hmacKey = (key) => crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
/** HMAC verification by Web Crypto: the comparison is the platform's own, not a string compare. */
const hmacMatches = async (key, signature, data) => crypto.subtle.verify('HMAC', await hmacKey(key), signature, data);
async function verifyHerald(body, headers, secret) {
    const given = header(headers, 'x-herald-signature');
    if (!given)
        throw new WebhookVerificationError('X-Herald-Signature is missing');
    const signature = fromHex(given.trim());
    if (!signature || !(await hmacMatches(encoder.encode(secret), signature, body))) {
        throw new WebhookVerificationError('X-Herald-Signature does not match the body');
    }
}
async function verifyStandard(body, headers, secret, toleranceSeconds, now) {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures)
        throw new WebhookVerificationError('webhook-id, webhook-timestamp and webhook-signature are required');
    const seconds = /^\d+$/.test(timestamp) ? Number(timestamp) : NaN;
    if (!Number.isFinite(seconds))
        throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
    if (Math.abs(now / 1000 - seconds) > toleranceSeconds) {
        throw new WebhookVerificationError(`webhook-timestamp is more than ${toleranceSeconds} s away from now (a replay, or a clock off)`);
    }
    const key = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
    if (!key || key.length === 0)
        throw new WebhookVerificationError('the secret is not "whsec_" followed by base64');
    const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
    // Several signatures may be listed (space separated) while a secret is being rotated.
    for (const candidate of signatures.split(' ')) {
        const [version, value] = candidate.split(',', 2);
        const signature = version === 'v1' && value ? fromBase64(value) : null;
        if (signature && (await hmacMatches(key, signature, signed)))
            return;
    }
    throw new WebhookVerificationError('webhook-signature does not match the body');
}
/**
 * Checks that a webhook request came from Herald, over the raw body exactly as received (before any
 * JSON parsing), and returns the parsed event. Throws WebhookVerificationError otherwise.
 */
export async function verifyWebhook(rawBody, headers, secret, options = {}) {
    const body = bytesOf(rawBody);
    if ((options.scheme ?? 'standard') === 'standard') {
        await verifyStandard(body, headers, secret, options.toleranceSeconds ?? 300, options.now ?? Date.now());
        if (header(headers, 'x-herald-signature') !== undefined)
            await verifyHerald(body, headers, secret);
    }
    else {
        await verifyHerald(body, headers, secret);
    }
    try {
        return JSON.parse(new TextDecoder().decode(body));
    }
    catch {
        throw new WebhookVerificationError('the body is not JSON');
    }
}
