// `pnpm cli console-sessions end-all` (docs/console.md "Sign-in and access"): ends every open console session, the
// admin's and every tenant's, and revokes each tenant session's own tenant token and API key. For an operator who
// rotated ADMIN_API_TOKEN or SECRETS_KEY, or suspects a session cookie leaked (docs/security.md "Console sessions
// and the admin token"). Everyone signs in again.
import type { Config } from '@risk/common/config';
import { createPrisma, endConsoleSessions } from '@risk/db';
import { CliError, type CliIo } from './cli-io';

export const CONSOLE_SESSIONS_USAGE = `  console-sessions end-all         end every open console session (admin and tenants) and revoke the
                                  session's own tenant token and API key; everyone signs in again`;

export async function runConsoleSessionsCommand(argv: string[], config: Config, io: CliIo): Promise<void> {
  const [action, ...rest] = argv;
  if (action !== 'end-all' || rest.length)
    throw new CliError(
      `unknown console-sessions command: ${argv.join(' ') || '(none)'}; try: console-sessions end-all`,
    );
  const db = createPrisma({ url: config.DATABASE_URL, applicationName: 'risk-cli', max: 2 });
  try {
    const ended = await endConsoleSessions(db.prisma, { select: { all: true } });
    io.out(JSON.stringify({ console_sessions_ended: ended }));
  } finally {
    await db.close();
  }
}
