// The console's public door (admin-api console/proxy.ts, docs/console.md "Sign-in and access") calls the public API
// from admin-api's own address for every tenant's session. So that one session's failed authentications never
// count against that shared address, the door names the session in a header the public API can verify: the
// session id with an HMAC under a label of SECRETS_KEY, which both APIs hold and no client does. The public API's
// failed-auth limit then counts such a request against the session, not the address (docs/security.md "The
// console's public door").
import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import { constantTimeEqual, decodeKey } from '../crypto';

export const CONSOLE_DOOR_HEADER = 'x-risk-console-door';

const SESSION_ID = /^[A-Za-z0-9_]{1,64}$/;

function doorMac(sessionId: string, secretsKey: string): string | null {
  const raw = decodeKey(secretsKey);
  if (!raw) return null;
  const key = createHmac('sha256', raw).update('console public door v1').digest();
  return createHmac('sha256', key).update(sessionId).digest('base64url');
}

/** The header value the door sends for `sessionId` (throws without a usable SECRETS_KEY). */
export function consoleDoorHeader(sessionId: string, secretsKey: string): string {
  const mac = SESSION_ID.test(sessionId) ? doorMac(sessionId, secretsKey) : null;
  if (!mac) throw new Error('the console door needs a session id and a 32-byte SECRETS_KEY');
  return `${sessionId}.${mac}`;
}

/** The console session a request came through the door for, when its header verifies; else null. */
export function consoleDoorSession(req: Request, secretsKey: string | undefined): string | null {
  const value = req.headers[CONSOLE_DOOR_HEADER];
  if (!secretsKey || typeof value !== 'string' || value.length > 200) return null;
  const dot = value.indexOf('.');
  if (dot < 0) return null;
  const sessionId = value.slice(0, dot);
  if (!SESSION_ID.test(sessionId)) return null;
  const mac = doorMac(sessionId, secretsKey);
  return mac && constantTimeEqual(value.slice(dot + 1), mac) ? sessionId : null;
}
