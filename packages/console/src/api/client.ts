// The console's one API module (docs/console.md "Sign-in and access"): every call is same-origin, carries the
// session cookie (HttpOnly, set by POST /console/v1/session) and, on a state-changing method, the session's CSRF
// token in X-Console-CSRF. Public-API data goes through admin-api's proxy /console/v1/public/* and admin routes
// through /console/v1/admin/*; the browser never holds an API key or a token it did not type in itself.
// Typed by the SDK's generated OpenAPI types (packages/sdk/src/generated).
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths as AdminPaths } from '@risk/sdk/src/generated/admin-api';
import type { paths as PublicPaths } from '@risk/sdk/src/generated/public-api';

export const CSRF_HEADER = 'X-Console-CSRF';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The error envelope both APIs answer with (docs/errors.md). */
export interface ApiErrorBody {
  error: { type: string; code?: string; message: string; param?: string; request_id?: string };
}

export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.error.message ?? `HTTP ${status}`);
  }
  get code(): string | undefined {
    return this.body?.error.code;
  }
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method) && csrfToken) request.headers.set(CSRF_HEADER, csrfToken);
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key'))
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    return request;
  },
};

function client<Paths extends object>(baseUrl: string) {
  const c = createClient<Paths>({ baseUrl, credentials: 'same-origin' });
  c.use(csrf);
  return c;
}

/** public API (/v1/…) through admin-api's session-bound proxy */
export const publicApi = client<PublicPaths>('/console/v1/public');
/** admin API routes (/tenants/v1/…, /firewalls/v1/…) with the session's credential */
export const adminApi = client<AdminPaths>('/console/v1/admin');

/** Unwraps an openapi-fetch result: the data, or a ConsoleApiError with the envelope. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) throw new ConsoleApiError(response.status, errorBody(error));
  return data;
}

function errorBody(error: unknown): ApiErrorBody | null {
  if (error && typeof error === 'object' && 'error' in error) return error as ApiErrorBody;
  return null;
}

export interface ConsoleSession {
  object: 'console_session';
  id: string;
  kind: 'admin' | 'tenant';
  tenant: { id: string; name: string; org_id: string } | null;
  csrf_token: string;
  expires_at: string;
  idle_expires_at: string;
}

async function sessionCall(method: string, body?: unknown): Promise<ConsoleSession | null> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  const res = await fetch('/console/v1/session', {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ConsoleApiError(res.status, errorBody(json));
  return json as ConsoleSession;
}

export const session = {
  /** exchanges the admin token or a tenant token for a session cookie (the token is not kept by the browser) */
  signIn: (token: string) => sessionCall('POST', { token }),
  current: () => sessionCall('GET'),
  signOut: () => sessionCall('DELETE'),
};
