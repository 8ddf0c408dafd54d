// The console session's secrets and cookie (docs/console.md "Sign-in and access"): a random 32-byte secret in an
// HttpOnly, SameSite=Strict cookie (only its SHA-256 is stored), and a CSRF token derived from it with a key of its
// own (HMAC-SHA256 under a label of SECRETS_KEY), so the server checks it without storing it.
import { createHmac } from 'node:crypto';
import { constantTimeEqual, decodeKey, randomToken, sha256Hex } from '@risk/common/crypto';
import type { Scope } from '@risk/contracts';

// a session ends after CONSOLE_IDLE_MS without a request and CONSOLE_ABSOLUTE_MS after sign-in (maintenance ends
// the lapsed ones too, so the numbers live with the statement that ends sessions)
export { CONSOLE_ABSOLUTE_MS, CONSOLE_IDLE_MS } from '@risk/db';
/** last_seen_at is written at most this often (the idle clock's resolution) */
export const CONSOLE_TOUCH_MS = 60_000;

/**
 * The scopes of a tenant session's own API key: read the org's data, triage it, share threats and manage
 * webhooks, and read artifact verdicts (the evidence behind an asset's artifact findings); no `signals:write` (the
 * console does not submit observations) and no `artifacts:write`.
 */
export const CONSOLE_KEY_SCOPES: Scope[] = [
  'artifacts:read',
  'assets:read',
  'assets:triage',
  'signals:read',
  'threats:read',
  'threats:write',
  'webhooks:write',
];

export const CSRF_HEADER = 'x-console-csrf';
const SECURE_COOKIE = '__Host-risk_console';
const PLAIN_COOKIE = 'risk_console';

export const newSessionSecret = () => `cs_${randomToken(32)}`;
export const sessionSecretHash = (secret: string) => sha256Hex(secret);

/** HMAC-SHA256 of `value` under a key of its label's own, HMAC-SHA256(SECRETS_KEY, label). */
function labelledMac(label: string, value: string, secretsKey: string): string {
  const raw = decodeKey(secretsKey);
  if (!raw) throw new Error('SECRETS_KEY must be 32 bytes');
  const key = createHmac('sha256', raw).update(label).digest();
  return createHmac('sha256', key).update(value).digest('base64url');
}

export const csrfTokenFor = (secret: string, secretsKey: string): string =>
  labelledMac('admin-api console-csrf v1', secret, secretsKey);

/**
 * What an admin session stores of the admin token it was opened with: an HMAC under a label of SECRETS_KEY, so the
 * row reveals nothing of the token and the session ends once the configured token is another (resolve-session.ts).
 */
export const adminTokenBinding = (adminToken: string, secretsKey: string): string =>
  labelledMac('admin-api console admin-token v1', adminToken, secretsKey);

export function csrfMatches(input: { secret: string; header: string | undefined; secretsKey: string }): boolean {
  return !!input.header && constantTimeEqual(input.header, csrfTokenFor(input.secret, input.secretsKey));
}

/** `__Host-` needs Secure, which a browser keeps only over HTTPS; plain HTTP (a local start) uses a plain name. */
export const cookieName = (secure: boolean) => (secure ? SECURE_COOKIE : PLAIN_COOKIE);

export function sessionCookie(input: { secret: string; secure: boolean; maxAgeSeconds: number }): string {
  const attrs = [
    `${cookieName(input.secure)}=${input.secret}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.round(input.maxAgeSeconds))}`,
  ];
  if (input.secure) attrs.push('Secure');
  return attrs.join('; ');
}

export const clearedCookie = (secure: boolean) => sessionCookie({ secret: '', secure, maxAgeSeconds: 0 });

/** The session secret from a Cookie header: the one cookie of our name, in the `cs_…` shape, else null. */
export function readSessionCookie(header: string | undefined, secure: boolean): string | null {
  if (!header || header.length > 16_384) return null;
  const name = cookieName(secure);
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return /^cs_[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
  }
  return null;
}
