// Admin API credentials (docs/admin-api.md, docs/security.md "Tenant credentials and firewall tokens"): the admin token (ADMIN_API_TOKEN, compared in constant time) and
// tenant tokens (JWT HS256, sub = tenant id, jti = the token's row in tenant_tokens, signed with a key derived
// from SECRETS_KEY). The signature proves who issued a token; the row (checked on every request) says whether
// it is still valid (docs/security.md "Tenant credentials and firewall tokens").
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { constantTimeEqual, decodeKey } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';

const ISSUER = 'risk-intel-admin';
const AUDIENCE = 'risk-intel-tenant';

export interface TenantTokenClaims {
  tenantId: string;
  /** the tenant_tokens row id; null for a token signed before tokens had ids (refused by the app) */
  tokenId: string | null;
}

export interface TenantTokenSigner {
  sign(input: { tenantId: string; tokenId: string; expiresAt: Date }): Promise<string>;
  verify(token: string): Promise<TenantTokenClaims>;
}

/** Signing key: HMAC-SHA256(SECRETS_KEY, label), so the encryption key itself never signs anything. */
export function createTenantTokenSigner(secretsKey: string): TenantTokenSigner {
  const raw = decodeKey(secretsKey);
  if (!raw) throw new Error('SECRETS_KEY must be 32 bytes');
  const key = createHmac('sha256', raw).update('admin-api tenant-token v1').digest();
  return {
    sign({ tenantId, tokenId, expiresAt }) {
      return new SignJWT({ typ: 'tenant' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(tenantId)
        .setJti(tokenId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
        if (!payload.sub) throw new ApiError('token_invalid', { message: 'The tenant token has no subject.' });
        return { tenantId: payload.sub, tokenId: typeof payload.jti === 'string' ? payload.jti : null };
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
