// Ends a console session (docs/console.md "Sign-in and access"): the session row, its own tenant token and its
// own API key are revoked in one transaction (the public API's key cache drops a revoked key within 5 s).
import type { AdminDeps } from '../deps';

export async function endConsoleSession(deps: Pick<AdminDeps, 'prisma'>, input: { sessionId: string; now?: Date }) {
  const now = input.now ?? new Date();
  await deps.prisma.$transaction(async (tx) => {
    const row = await tx.consoleSession.findUnique({ where: { id: input.sessionId } });
    if (!row) return;
    if (!row.revoked_at) await tx.consoleSession.update({ where: { id: row.id }, data: { revoked_at: now } });
    if (row.session_token_id)
      await tx.tenantToken.updateMany({
        where: { id: row.session_token_id, revoked_at: null },
        data: { revoked_at: now },
      });
    if (row.api_key_id)
      await tx.apiKey.updateMany({ where: { id: row.api_key_id, revoked_at: null }, data: { revoked_at: now } });
  });
  return { object: 'console_sign_out' as const, id: input.sessionId, signed_out_at: now.toISOString() };
}
