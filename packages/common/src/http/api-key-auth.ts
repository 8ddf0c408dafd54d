import { readApiKeyByHash, type ApiKeyCheckRow, type PrismaClient } from '@risk/db';
import type { RequestHandler, Response } from 'express';
import type { Scope } from '@risk/contracts';
import { hashApiKey } from '../api-keys';
import { ApiError } from '../errors';

export interface ApiKeyPrincipal {
  key_id: string;
  org_id: string;
  livemode: boolean;
  scopes: ReadonlySet<string>;
}

interface CachedKey extends ApiKeyCheckRow {
  fetchedAt: number;
  /** built once per look-up, shared by the requests the cache entry serves */
  principal: ApiKeyPrincipal;
}

/**
 * Bearer API-key authentication. Keys are looked up by SHA-256 hash, joined to the tenant that owns
 * their org so a suspended tenant's keys are refused (docs/security.md "Tenant credentials and firewall
 * tokens"); positive look-ups are cached in process for `cacheTtlMs` (so revocation and suspension take
 * effect within that window) and last_used_at is written in batches, not once per request.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedKey>();
  private readonly used = new Set<string>();
  private flushTimer?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: { cacheTtlMs?: number; lastUsedFlushMs?: number } = {},
  ) {
    const flushMs = opts.lastUsedFlushMs ?? 30_000;
    this.flushTimer = setInterval(() => void this.flushLastUsed(), flushMs);
    this.flushTimer.unref();
  }

  async authenticate(header: string | undefined): Promise<ApiKeyPrincipal> {
    if (!header) {
      throw new ApiError('api_key_missing', {
        message: "No API key provided. Send it as 'Authorization: Bearer <API_KEY>'.",
      });
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new ApiError('api_key_invalid', {
        message: "Malformed Authorization header; expected 'Bearer <API_KEY>'.",
      });
    }
    const hash = hashApiKey(match[1]!);
    const now = Date.now();
    let key = this.cache.get(hash);
    if (!key || now - key.fetchedAt > (this.opts.cacheTtlMs ?? 5000)) {
      // one query: the unique key_hash index, then the unique tenants.org_id index
      const row = await readApiKeyByHash(this.prisma, hash);
      if (!row) {
        this.cache.delete(hash);
        throw new ApiError('api_key_invalid', { message: 'Invalid API key provided.' });
      }
      key = {
        ...row,
        fetchedAt: now,
        principal: { key_id: row.id, org_id: row.org_id, livemode: row.livemode, scopes: new Set(row.scopes) },
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, key);
    }
    if (key.revoked_at && key.revoked_at.getTime() <= now) {
      throw new ApiError('api_key_revoked', { message: 'This API key has been revoked.' });
    }
    if (key.expires_at && key.expires_at.getTime() <= now) {
      throw new ApiError('api_key_expired', { message: 'This API key has expired.' });
    }
    if (key.tenant_status !== null && key.tenant_status !== 'active') {
      throw new ApiError('tenant_suspended', {
        message: "This API key's tenant is suspended; its keys are refused until an admin reactivates it.",
      });
    }
    this.used.add(key.id);
    return key.principal;
  }

  middleware(): RequestHandler {
    return async (req, res, next) => {
      res.locals.auth = await this.authenticate(req.headers.authorization);
      next();
    };
  }

  /** one UPDATE for every key used since the last flush */
  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used.clear();
    try {
      await this.prisma.apiKey.updateMany({ where: { id: { in: ids } }, data: { last_used_at: new Date() } });
    } catch {
      /* best effort: last_used_at is informational */
    }
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flushLastUsed();
  }
}

export function principalOf(res: Response): ApiKeyPrincipal {
  const auth = res.locals.auth as ApiKeyPrincipal | undefined;
  if (!auth) throw new ApiError('api_key_missing');
  return auth;
}

export function requireScope(res: Response, scope: Scope): ApiKeyPrincipal {
  const auth = principalOf(res);
  if (!auth.scopes.has(scope)) {
    throw new ApiError('insufficient_scope', {
      message: `This API key lacks the '${scope}' scope required by this route.`,
    });
  }
  return auth;
}
