import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MAX_ACTIVE_KEYS_PER_ORG } from '@risk/common/api-key-store';
import { buildApiKey, hashApiKey } from '@risk/common/api-keys';
import { readMigrations } from '@risk/db';
import { createTestContext, type TestContext } from '@risk/testing';
import { runCli, CliError } from '../src';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('operator CLI', () => {
  let ctx: TestContext;
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };

  beforeAll(async () => {
    ctx = await createTestContext('cli');
  });
  afterAll(async () => ctx.close());
  beforeEach(() => {
    out.length = 0;
    err.length = 0;
  });

  it('api-keys create prints the key once as JSON and stores only its hash', async () => {
    await runCli(
      [
        'api-keys',
        'create',
        '--org',
        'org_cli',
        '--scopes',
        'signals:write,assets:read',
        '--test',
        '--expires-in',
        '7',
      ],
      ctx.config,
      io,
    );
    expect(out).toHaveLength(1);
    const minted = JSON.parse(out[0]!);
    expect(Object.keys(minted).sort()).toEqual(['expires_at', 'id', 'key', 'livemode', 'org_id', 'scopes']);
    expect(minted.key).toMatch(/^rk_test_[A-Za-z0-9_-]{43}$/);
    expect(minted.id).toMatch(/^key_[0-9a-z]{26}$/);
    expect(minted).toMatchObject({ org_id: 'org_cli', scopes: ['signals:write', 'assets:read'], livemode: false });
    const expiresIn = Date.parse(minted.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(6.9 * 86_400_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * 86_400_000);
    const row = await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.key_hash).toBe(hashApiKey(minted.key));
    expect(JSON.stringify(row)).not.toContain(minted.key);
  });

  it('api-keys list never shows a key and revoke marks it revoked', async () => {
    await runCli(['api-keys', 'create', '--org', 'org_list', '--scopes', 'assets:read'], ctx.config, io);
    const minted = JSON.parse(out[0]!);
    expect(minted.livemode).toBe(true);
    expect(minted.key).toMatch(/^rk_live_/);
    out.length = 0;
    await runCli(['api-keys', 'list', '--org', 'org_list'], ctx.config, io);
    expect(out[0]).not.toContain(minted.key);
    const listed = JSON.parse(out[0]!);
    expect(listed).toHaveLength(1);
    expect(listed[0].id).toBe(minted.id);
    out.length = 0;
    await runCli(['api-keys', 'revoke', minted.id], ctx.config, io);
    const row = await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.revoked_at).toBeInstanceOf(Date);
    await expect(runCli(['api-keys', 'revoke', 'key_nope'], ctx.config, io)).rejects.toThrow(/no such API key/);
  });

  it("api-keys go through the admin routes' store: same limit, expiry bound, suspended-tenant refusal and list shape", async () => {
    const create = (org: string, extra: string[] = []) =>
      runCli(['api-keys', 'create', '--org', org, '--scopes', 'assets:read', ...extra], ctx.config, io);
    await expect(create('org_cli_bound', ['--expires-in', '366'])).rejects.toThrow(/parameter_invalid: expires_at/);
    await ctx.db.prisma.apiKey.createMany({
      data: Array.from(
        { length: MAX_ACTIVE_KEYS_PER_ORG },
        () => buildApiKey({ org_id: 'org_cli_full', scopes: ['assets:read'], livemode: true }).row,
      ),
    });
    await expect(create('org_cli_full')).rejects.toThrow(/api_key_limit_reached/);
    await ctx.db.prisma.tenant.create({
      data: {
        id: 'ten_cli_suspended',
        name: 'cli-suspended',
        admin_email: 'a@b.example',
        org_id: 'org_cli_susp',
        status: 'suspended',
      },
    });
    await expect(create('org_cli_susp')).rejects.toThrow(/tenant_suspended/);
    expect(await ctx.db.prisma.apiKey.count({ where: { org_id: { in: ['org_cli_bound', 'org_cli_susp'] } } })).toBe(0);
    out.length = 0;
    await runCli(['api-keys', 'list', '--org', 'org_cli_full'], ctx.config, io);
    const listed = JSON.parse(out[0]!);
    expect(listed).toHaveLength(MAX_ACTIVE_KEYS_PER_ORG);
    expect(listed[0]).toMatchObject({ object: 'api_key', org_id: 'org_cli_full', status: 'active' });
    expect(listed[0].key).toBeUndefined();
  });

  it('rejects unknown scopes, a missing org and an unconfirmed reset', async () => {
    await expect(runCli(['api-keys', 'create', '--org', 'o', '--scopes', 'root'], ctx.config, io)).rejects.toThrow(
      CliError,
    );
    await expect(runCli(['api-keys', 'create', '--scopes', 'assets:read'], ctx.config, io)).rejects.toThrow(
      /--org is required/,
    );
    await expect(runCli(['db', 'reset'], ctx.config, io)).rejects.toThrow(/--yes/);
  });

  it('db migrate is idempotent', async () => {
    await runCli(['db', 'migrate'], ctx.config, io);
    expect(JSON.parse(out[0]!)).toEqual({ applied: [], already_applied: readMigrations().length });
  });

  it('db reset --yes drops every row and re-applies the migrations', async () => {
    await runCli(['api-keys', 'create', '--org', 'org_reset', '--scopes', 'assets:read'], ctx.config, io);
    expect(await ctx.db.prisma.apiKey.count({ where: { org_id: 'org_reset' } })).toBe(1);
    out.length = 0;
    await runCli(['db', 'reset', '--yes'], ctx.config, io);
    expect(JSON.parse(out[0]!)).toEqual({ reset: true, applied: readMigrations().map((m) => m.name) });
    expect(await ctx.db.prisma.apiKey.count()).toBe(0);
  });

  it('api-keys create mints the assets:triage scope (docs/triage.md)', async () => {
    await runCli(
      ['api-keys', 'create', '--org', 'org_triage', '--scopes', 'assets:read,assets:triage'],
      ctx.config,
      io,
    );
    const minted = JSON.parse(out.pop()!);
    expect(minted.scopes).toEqual(['assets:read', 'assets:triage']);
    const row = await ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: minted.id } });
    expect(row.scopes).toEqual(['assets:read', 'assets:triage']);
  });

  it('`pnpm --silent cli api-keys create` prints only the JSON on stdout', () => {
    const res = spawnSync(
      'pnpm',
      ['--silent', 'cli', 'api-keys', 'create', '--org', 'org_proc', '--scopes', 'assets:read'],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(res.status).toBe(0);
    const parsed = JSON.parse(res.stdout);
    expect(parsed.org_id).toBe('org_proc');
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
  });
  it('doctor reports an asset neither enriched nor queued, and --repair queues it through the outbox', async () => {
    const pool = ctx.db.pool;
    await pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, latest_signal_id, latest_digest, first_seen, last_seen, updated)
       VALUES (true, 'npm:doctor@1.0.0', 'package', 'sig_doctor', 'd1', now(), now(), now() - interval '2 minutes')`,
    );
    const waiting = `SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND payload->>'fingerprint' = 'npm:doctor@1.0.0'`;
    await runCli(['doctor'], ctx.config, io);
    expect(JSON.parse(out.pop()!)).toMatchObject({
      ran: true,
      repaired: false,
      assets_unqueued: ['live:npm:doctor@1.0.0'],
    });
    expect((await pool.query(waiting)).rows[0].n).toBe(0);
    await runCli(['doctor', '--repair'], ctx.config, io);
    expect(JSON.parse(out.pop()!)).toMatchObject({ repaired: true, assets_unqueued: ['live:npm:doctor@1.0.0'] });
    expect((await pool.query(waiting)).rows[0].n).toBe(1);
    await runCli(['doctor'], ctx.config, io);
    expect(JSON.parse(out.pop()!).assets_unqueued).toEqual([]);
  });
});
