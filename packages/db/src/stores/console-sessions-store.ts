// Ending console sessions in one statement (docs/console.md "Sign-in and access"): the session rows, the tenant
// token and the org API key each tenant session minted for itself are revoked together, so an ended session leaves
// no live credential behind. Used by sign-out and the per-tenant session cap (admin-api), maintenance (worker:
// sessions that lapsed without being presented again) and `pnpm cli console-sessions end-all`.
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** a console session ends after this long without a request… */
export const CONSOLE_IDLE_MS = 30 * 60_000;
/** …and this long after sign-in whatever happens */
export const CONSOLE_ABSOLUTE_MS = 8 * 3600_000;

export type ConsoleSessionSelection =
  /** every open session (the operator's command) */
  | { all: true }
  /** these sessions */
  | { ids: string[] }
  /**
   * open sessions that can no longer be used: past their 8 h or 30 min idle, or their tenant's sign-in token
   * revoked or expired, or the tenant no longer active (a session refused for any of these ends when it is next
   * presented; maintenance ends those never presented again)
   */
  | { lapsed: true };

function selected(sel: ConsoleSessionSelection, now: Date): Prisma.Sql {
  if ('ids' in sel) return sel.ids.length ? Prisma.sql`s.id IN (${Prisma.join(sel.ids)})` : Prisma.sql`FALSE`;
  if ('all' in sel) return Prisma.sql`TRUE`;
  const idleCutoff = new Date(now.getTime() - CONSOLE_IDLE_MS);
  return Prisma.sql`(s.expires_at <= ${now} OR s.last_seen_at <= ${idleCutoff}
    OR (s.kind = 'tenant' AND NOT EXISTS (
      SELECT 1 FROM tenants t JOIN tenant_tokens tt ON tt.id = s.signin_token_id
       WHERE t.id = s.tenant_id AND t.status = 'active' AND tt.revoked_at IS NULL AND tt.expires_at > ${now})))`;
}

/** Ends the selected open sessions and revokes their own credentials; returns how many sessions it ended. */
export async function endConsoleSessions(
  db: Pick<PrismaClient, '$queryRaw'>,
  input: { select: ConsoleSessionSelection; now?: Date },
): Promise<number> {
  const now = input.now ?? new Date();
  const [row] = await db.$queryRaw<{ ended: number }[]>`
    WITH ended AS (
      UPDATE console_sessions s SET revoked_at = ${now}
       WHERE s.revoked_at IS NULL AND ${selected(input.select, now)}
      RETURNING s.id, s.session_token_id, s.api_key_id
    ),
    -- the credential updates run to completion though the final SELECT reads neither
    tokens AS (
      UPDATE tenant_tokens SET revoked_at = ${now}
       WHERE revoked_at IS NULL AND id IN (SELECT session_token_id FROM ended WHERE session_token_id IS NOT NULL)
    ),
    keys AS (
      UPDATE api_keys SET revoked_at = ${now}
       WHERE revoked_at IS NULL AND id IN (SELECT api_key_id FROM ended WHERE api_key_id IS NOT NULL)
    )
    SELECT count(*)::int AS ended FROM ended`;
  return row?.ended ?? 0;
}

/** A console session found by its secret's hash, with its tenant and the tenant token typed in at sign-in. */
export interface ConsoleSessionCheckRow {
  id: string;
  kind: string;
  created: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  tenant_id: string | null;
  tenant_name: string | null;
  org_id: string | null;
  tenant_status: string | null;
  signin_revoked_at: Date | null;
  signin_expires_at: Date | null;
  tenant_token_ciphertext: string | null;
  api_key_ciphertext: string | null;
  admin_token_hmac: string | null;
}

export async function readConsoleSessionBySecretHash(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  secretHash: string,
): Promise<ConsoleSessionCheckRow | undefined> {
  const [row] = await prisma.$queryRaw<ConsoleSessionCheckRow[]>`
    SELECT s.id, s.kind, s.created, s.last_seen_at, s.expires_at, s.revoked_at, s.tenant_id,
           t.name AS tenant_name, t.org_id, t.status AS tenant_status,
           tt.revoked_at AS signin_revoked_at, tt.expires_at AS signin_expires_at,
           s.tenant_token_ciphertext, s.api_key_ciphertext, s.admin_token_hmac
    FROM console_sessions s
    LEFT JOIN tenants t ON t.id = s.tenant_id
    LEFT JOIN tenant_tokens tt ON tt.id = s.signin_token_id
    WHERE s.secret_hash = ${secretHash}`;
  return row;
}
