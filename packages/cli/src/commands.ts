import { parseArgs } from 'node:util';
import { createLogger, isScope, mintApiKey, QueueProducer, type Config, type Scope } from '@risk/common';
import { createPrisma, ensureDatabase, migrate, resetDatabase } from '@risk/db';
import { checkInvariants } from '@risk/worker';

/** A CLI failure with a message for the operator and no stack trace. */
export class CliError extends Error {}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export const USAGE = `Usage: pnpm cli <command>

  api-keys create --org <org_id> --scopes <a,b,…> [--test] [--expires-in <days>] [--name <text>]
                                  mint an API key; prints it once as JSON
  api-keys list --org <org_id>    list an org's keys (never the key itself)
  api-keys revoke <key_id>        revoke a key (takes effect within seconds)
  db migrate                      create the database if missing and apply migrations
  db reset --yes                  drop everything and re-apply migrations
  doctor [--repair]               report work that fell through (assets and assignments neither done nor
                                  queued, outbox rows waiting over a minute, dead-lettered rows) as JSON;
                                  --repair re-queues it (docs/reliability.md "Invariants")

Scopes: signals:write signals:read assets:read threats:read threats:write webhooks:write
Use \`pnpm --silent cli …\` to get only the JSON on stdout.`;

function parseScopes(value: string | undefined): Scope[] {
  if (!value) throw new CliError('--scopes is required (comma-separated, e.g. signals:write,assets:read)');
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !isScope(s));
  if (bad.length || scopes.length === 0) throw new CliError(`unknown scope(s): ${bad.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

export async function runCli(argv: string[], config: Config, io: CliIo): Promise<void> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    io.out(USAGE);
    return;
  }
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
  if (group === 'api-keys') {
    const db = createPrisma({
      url: config.DATABASE_URL,
      applicationName: 'risk-cli',
      max: 2,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
    });
    try {
      if (action === 'create') {
        const { values } = parseArgs({
          args: rest,
          options: {
            org: { type: 'string' },
            scopes: { type: 'string' },
            test: { type: 'boolean' },
            'expires-in': { type: 'string' },
            name: { type: 'string' },
          },
        });
        if (!values.org) throw new CliError('--org is required');
        if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(values.org))
          throw new CliError('--org may hold letters, digits and _ . : - (max 128)');
        const scopes = parseScopes(values.scopes);
        let expiresAt: Date | null = null;
        if (values['expires-in'] !== undefined) {
          const days = Number(values['expires-in']);
          if (!Number.isFinite(days) || days <= 0) throw new CliError('--expires-in takes a positive number of days');
          expiresAt = new Date(Date.now() + days * 86_400_000);
        }
        const minted = await mintApiKey(db.prisma, {
          org_id: values.org,
          scopes,
          livemode: !values.test,
          expires_at: expiresAt,
          name: values.name ?? null,
        });
        io.out(JSON.stringify(minted));
        return;
      }
      if (action === 'list') {
        const { values } = parseArgs({ args: rest, options: { org: { type: 'string' } } });
        if (!values.org) throw new CliError('--org is required');
        const keys = await db.prisma.apiKey.findMany({
          where: { org_id: values.org },
          orderBy: [{ created: 'desc' }, { id: 'desc' }],
          select: {
            id: true,
            org_id: true,
            name: true,
            key_prefix: true,
            last4: true,
            scopes: true,
            livemode: true,
            created: true,
            expires_at: true,
            revoked_at: true,
            last_used_at: true,
          },
        });
        io.out(JSON.stringify(keys.map((k) => ({ ...k, redacted_key: `${k.key_prefix}…${k.last4}` }))));
        return;
      }
      if (action === 'revoke') {
        const id = rest[0];
        if (!id) throw new CliError('usage: api-keys revoke <key_id>');
        const result = await db.prisma.apiKey.updateMany({
          where: { id, revoked_at: null },
          data: { revoked_at: new Date() },
        });
        if (result.count === 0) {
          const exists = await db.prisma.apiKey.count({ where: { id } });
          if (!exists) throw new CliError(`no such API key: ${id}`);
        }
        io.out(JSON.stringify({ id, revoked: true }));
        return;
      }
      throw new CliError(`unknown api-keys command: ${action ?? '(none)'}\n\n${USAGE}`);
    } finally {
      await db.close();
    }
  }
  throw new CliError(`unknown command: ${group}\n\n${USAGE}`);
}
