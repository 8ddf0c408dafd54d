// Ends a console session (docs/console.md "Sign-in and access"): the session row, its own tenant token and its
// own API key are revoked in one statement (the public API's key cache drops a revoked key within 5 s).
import { endConsoleSessions } from '@risk/db';
import type { AdminDeps } from '../deps';

export async function endConsoleSession(deps: Pick<AdminDeps, 'prisma'>, input: { sessionId: string; now?: Date }) {
  const now = input.now ?? new Date();
  await endConsoleSessions(deps.prisma, { select: { ids: [input.sessionId] }, now });
  return { object: 'console_sign_out' as const, id: input.sessionId, signed_out_at: now.toISOString() };
}
