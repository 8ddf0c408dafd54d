// Admin API credentials (DESIGN.md §4): the admin token (ADMIN_API_TOKEN, compared in constant time) and
// tenant tokens (JWT HS256, sub = tenant id, signed with a key derived from SECRETS_KEY).
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ApiError, constantTimeEqual, decodeKey } from '@risk/common';

const ISSUER = 'risk-intel-admin';
const AUDIENCE = 'risk-intel-tenant';

export interface TenantTokenSigner {
  sign(tenantId: string, ttlDays: number): Promise<{ token: string; expires_at: Date }>;
  verify(token: string): Promise<string>;
}

/** Signing key: HMAC-SHA256(SECRETS_KEY, label), so the encryption key itself never signs anything. */
export function createTenantTokenSigner(secretsKey: string): TenantTokenSigner {
  const raw = decodeKey(secretsKey);
  if (!raw) throw new Error('SECRETS_KEY must be 32 bytes');
  const key = createHmac('sha256', raw).update('admin-api tenant-token v1').digest();
  return {
    async sign(tenantId, ttlDays) {
      const expires = new Date(Date.now() + ttlDays * 86400_000);
      const token = await new SignJWT({ typ: 'tenant' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(tenantId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expires.getTime() / 1000))
        .sign(key);
      return { token, expires_at: new Date(Math.floor(expires.getTime() / 1000) * 1000) };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (!payload.sub) throw new ApiError('token_invalid', { message: 'The tenant token has no subject.' });
        return payload.sub;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (err instanceof joseErrors.JWTExpired)
          throw new ApiError('token_expired', { message: 'The tenant token has expired; mint a new one.' });
        throw new ApiError('token_invalid', { message: 'Invalid bearer token.' });
      }
    },
  };
}

export function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

export function isAdminToken(token: string, adminToken: string | undefined): boolean {
  return !!adminToken && constantTimeEqual(token, adminToken);
}
