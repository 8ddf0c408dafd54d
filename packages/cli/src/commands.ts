import { parseArgs } from 'node:util';
import { type Config } from '@risk/common/config';
import { createLogger } from '@risk/common/observability';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createPrisma, ensureDatabase, migrate, resetDatabase } from '@risk/db';
import { checkInvariants } from '@risk/worker';
import { ADVISORIES_USAGE, runAdvisories } from './advisories';
import { API_KEYS_USAGE, runApiKeysCommand } from './api-keys-command';
import { runCategoriesCommand } from './categories-command';
import { CONSOLE_SESSIONS_USAGE, runConsoleSessionsCommand } from './console-sessions-command';
import { CliError, type CliIo } from './cli-io';

export const USAGE = `Usage: pnpm cli <command>

${API_KEYS_USAGE}
${ADVISORIES_USAGE}
  categories import <csv> [--source <name>]
                                  add AI categories/domains (domain,category,vendor[,category_name,
                                  category_description]); all rows or none (docs/firewalls.md)
${CONSOLE_SESSIONS_USAGE}
  db migrate                      create the database if missing and apply migrations
  db reset --yes                  drop everything and re-apply migrations
  doctor [--repair]               report work that fell through (assets and assignments neither done nor
                                  queued, outbox rows waiting over a minute, dead-lettered rows) as JSON;
                                  --repair re-queues it (docs/reliability.md "Invariants")

Scopes: ${SCOPES.join(' ')}
Use \`pnpm --silent cli …\` to get only the JSON on stdout.`;

export async function runCli(argv: string[], config: Config, io: CliIo): Promise<void> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    io.out(USAGE);
    return;
  }
  if (group === 'categories')
    return runCategoriesCommand(
      [action, ...rest].filter((a) => a !== undefined),
      config,
      io,
    );
  if (group === 'db') {
    if (action === 'migrate') {
      const created = await ensureDatabase(config.DATABASE_URL);
      if (created) io.err(`created database ${new URL(config.DATABASE_URL).pathname.slice(1)}`);
      const result = await migrate(config.DATABASE_URL, { log: io.err });
      io.out(JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied.length }));
      return;
    }
    if (action === 'reset') {
      const { values } = parseArgs({ args: rest, options: { yes: { type: 'boolean' } } });
      if (!values.yes) throw new CliError('db reset drops every table; pass --yes to confirm');
      await ensureDatabase(config.DATABASE_URL);
      const result = await resetDatabase(config.DATABASE_URL, io.err);
      io.out(JSON.stringify({ reset: true, applied: result.applied }));
      return;
    }
    throw new CliError(`unknown db command: ${action ?? '(none)'}\n\n${USAGE}`);
  }
  if (group === 'advisories') return runAdvisories({ action, rest }, config, io);
  if (group === 'doctor') {
    const { values } = parseArgs({
      args: [action, ...rest].filter((a) => a !== undefined),
      options: { repair: { type: 'boolean' } },
    });
    const db = createPrisma({ url: config.DATABASE_URL, applicationName: 'risk-cli', max: 2 });
    const producer = new QueueProducer({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, 'cli-doctor');
    try {
      const logger = createLogger({ level: 'warn', service: 'cli', stderr: true });
      const report = await checkInvariants(
        { config, prisma: db.prisma, pool: db.pool, producer, logger },
        { repair: values.repair === true },
      );
      if (!report.ran)
        throw new CliError('another invariants pass (a worker or a second doctor) is running; try again');
      io.out(JSON.stringify(report));
      return;
    } finally {
      await producer.close();
      await db.close();
    }
  }
  if (group === 'console-sessions')
    return runConsoleSessionsCommand(
      [action, ...rest].filter((a) => a !== undefined),
      config,
      io,
    );
  if (group === 'api-keys')
    return runApiKeysCommand(
      [action, ...rest].filter((a) => a !== undefined),
      config,
      io,
    );
  throw new CliError(`unknown command: ${group}\n\n${USAGE}`);
}
