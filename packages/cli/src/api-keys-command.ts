// `pnpm cli api-keys create|list|revoke` (README "First calls"): the operator's side of an org's API keys, on the
// same store functions as the admin API's /keys/v1 routes (docs/admin-api.md "API keys"), so both mint, list and
// revoke one way: the per-org limit, the suspended-tenant refusal and the expiry bound hold for both.
import { parseArgs } from 'node:util';
import {
  createOrgApiKey,
  listOrgApiKeys,
  revokeApiKey,
  serializeApiKey,
  type SerializedApiKey,
} from '@risk/common/api-key-store';
import { isScope } from '@risk/common/api-keys';
import { type Config } from '@risk/common/config';
import { ApiError } from '@risk/common/errors';
import { type Scope } from '@risk/contracts';
import { createPrisma, type PrismaClient } from '@risk/db';
import { CliError, type CliIo } from './cli-io';

export const API_KEYS_USAGE = `  api-keys create --org <org_id> --scopes <a,b,…> [--test] [--expires-in <days>] [--name <text>]
                                  mint an API key (at most 100 active per org, 365 days); prints it
                                  once as JSON
  api-keys list --org <org_id>    list an org's keys (never the key itself)
  api-keys revoke <key_id>        revoke a key (takes effect within seconds)`;

const DAY_MS = 86_400_000;
const ORG_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

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

function requireOrg(org: string | undefined): string {
  if (!org) throw new CliError('--org is required');
  if (!ORG_ID.test(org)) throw new CliError('--org may hold letters, digits and _ . : - (max 128)');
  return org;
}

async function create(prisma: PrismaClient, args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      scopes: { type: 'string' },
      test: { type: 'boolean' },
      'expires-in': { type: 'string' },
      name: { type: 'string' },
    },
  });
  const org = requireOrg(values.org);
  const scopes = parseScopes(values.scopes);
  let expiresAt: Date | null = null;
  if (values['expires-in'] !== undefined) {
    const days = Number(values['expires-in']);
    if (!Number.isFinite(days) || days <= 0) throw new CliError('--expires-in takes a positive number of days');
    expiresAt = new Date(Date.now() + days * DAY_MS);
  }
  const { row, key } = await createOrgApiKey(prisma, {
    org_id: org,
    scopes,
    livemode: !values.test,
    expires_at: expiresAt,
    name: values.name ?? null,
  });
  const expires_at = row.expires_at ? row.expires_at.toISOString() : null;
  io.out(
    JSON.stringify({ id: row.id, key, org_id: row.org_id, scopes: row.scopes, livemode: row.livemode, expires_at }),
  );
}

/** Every key of the org, newest first, page by page (100 a page): never a secret. */
async function list(prisma: PrismaClient, args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } });
  const orgId = requireOrg(values.org);
  const keys: SerializedApiKey[] = [];
  let starting_after: string | undefined;
  for (;;) {
    const page = await listOrgApiKeys(prisma, { orgId, page: { limit: 100, starting_after } });
    keys.push(...page.data.map((row) => serializeApiKey(row)));
    if (!page.has_more || page.data.length === 0) break;
    starting_after = page.data[page.data.length - 1]!.id;
  }
  io.out(JSON.stringify(keys));
}

async function revoke(prisma: PrismaClient, args: string[], io: CliIo): Promise<void> {
  const id = args[0];
  if (!id) throw new CliError('usage: api-keys revoke <key_id>');
  const row = await revokeApiKey(prisma, { id });
  if (!row) throw new CliError(`no such API key: ${id}`);
  io.out(JSON.stringify({ id, revoked: true }));
}

const ACTIONS = { create, list, revoke } as const;

export async function runApiKeysCommand(argv: string[], config: Config, io: CliIo): Promise<void> {
  const [action, ...rest] = argv;
  const run = action !== undefined && Object.hasOwn(ACTIONS, action) ? ACTIONS[action as keyof typeof ACTIONS] : null;
  if (!run) throw new CliError(`unknown api-keys command: ${action ?? '(none)'}\n\n${API_KEYS_USAGE}`);
  const db = createPrisma({
    url: config.DATABASE_URL,
    applicationName: 'risk-cli',
    max: 2,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
  });
  try {
    await run(db.prisma, rest, io);
  } catch (err) {
    // the store's refusals (limit, suspended tenant, expiry bound) read as operator errors, not stack traces
    if (err instanceof ApiError) throw new CliError(`${err.code}: ${err.message}`);
    throw err;
  } finally {
    await db.close();
  }
}
