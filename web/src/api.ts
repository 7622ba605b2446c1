// The dashboard's one way to Herald: fetch with the session cookie (sent by the browser, never seen by
// this code) and, on every request that changes something, the session's CSRF token in X-Herald-CSRF.
// The API key is typed once into the sign-in form, sent once, and kept nowhere.

export interface ApiErrorBody {
  error: string;
  code: string;
  param?: string | null;
  type?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;
  constructor(status: number, body: ApiErrorBody) {
    super(body.error);
    this.status = status;
    this.body = body;
  }
}

/** GET /app/api/meta: what the dashboard shows for the platforms and webhook events this Herald has. */
export interface Meta {
  platforms: { platform: string; displayName: string; connect: 'oauth' | 'server_oauth' | 'password'; available: boolean }[];
  events: string[];
}

export interface SessionInfo {
  key: { id: string; name: string; prefix: string };
  csrfToken: string;
  idleTimeoutSeconds: number;
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

export function setSession(s: SessionInfo | null): void {
  csrfToken = s?.csrfToken ?? '';
}

/** Called when the API answers 401: the session ended (signed out elsewhere, idle, key revoked). */
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

export function csrfHeaders(): Record<string, string> {
  return { 'x-herald-csrf': csrfToken };
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { error: text, code: 'NOT_JSON' };
  }
}

export async function api<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers }, credentials: 'same-origin' };
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init.headers as Record<string, string>, csrfHeaders());
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const parsed = await parse(res);
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/app/api/session')) onSignedOut();
    const err = (parsed ?? { error: `${res.status} ${res.statusText}`, code: 'HTTP_' + res.status }) as ApiErrorBody;
    throw new ApiError(res.status, err);
  }
  return parsed as T;
}

export async function signIn(key: string): Promise<SessionInfo> {
  const s = await api<SessionInfo>('POST', '/app/api/session', { key });
  setSession(s);
  return s;
}

export async function currentSession(): Promise<SessionInfo | null> {
  try {
    const s = await api<SessionInfo>('GET', '/app/api/session');
    setSession(s);
    return s;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export async function signOut(): Promise<void> {
  await api('DELETE', '/app/api/session');
  setSession(null);
}

/** The message to show for a failed call: the API's own words, with the field it names. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.body.param ? `${err.body.error} (${err.body.param})` : err.body.error;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Uploads one file to POST /v1/media (multipart, API.md section 10) with progress, through XHR: fetch
 * has no upload progress in every browser yet.
 */
export function uploadMedia(file: File, altText: string, onProgress: (fraction: number) => void): Promise<any> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/media');
    xhr.setRequestHeader('x-herald-csrf', csrfToken);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: any;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { error: xhr.responseText || `${xhr.status}`, code: 'NOT_JSON' };
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body);
      } else {
        if (xhr.status === 401) onSignedOut();
        if (xhr.status === 404) body = { error: 'media upload is not available on this server (POST /v1/media answered 404)', code: 'NOT_FOUND' };
        reject(new ApiError(xhr.status, body));
      }
    };
    xhr.onerror = () => reject(new Error('the upload was cut off; try again'));
    const form = new FormData();
    if (altText) form.append('altText', altText);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
