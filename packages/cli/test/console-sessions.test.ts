// `pnpm cli console-sessions end-all` (docs/console.md "Sign-in and access"): the operator's way to end every console
// session at once (after rotating ADMIN_API_TOKEN, or a suspected cookie leak): the admin's and every tenant's
// sessions end, and each tenant session's own tenant token and API key are revoked.
import { buildApiKey } from '@risk/common/api-keys';
import { sha256Hex } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import { createTestContext, type TestContext } from '@risk/testing';
import { runCli, CliError } from '../src';

describe('console-sessions end-all', () => {
  let ctx: TestContext;
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: () => undefined };

  beforeAll(async () => {
    ctx = await createTestContext('cliconsole');
  });
  afterAll(async () => ctx.close());

  /** a tenant session as sign-in leaves it: the session row, its own tenant token and its own API key */
  async function tenantSession(tenantId: string, orgId: string) {
    const prisma = ctx.db.prisma;
    const expires = new Date(Date.now() + 3600_000);
    const token = await prisma.tenantToken.create({
      data: { id: newId(ID_PREFIXES.tenantToken), tenant_id: tenantId, name: 'console session', expires_at: expires },
    });
    const { row: key } = buildApiKey({ org_id: orgId, scopes: ['assets:read'], livemode: true, expires_at: expires });
    await prisma.apiKey.create({ data: key });
    return prisma.consoleSession.create({
      data: {
        id: newId(ID_PREFIXES.consoleSession),
        secret_hash: sha256Hex(newId('cs')),
        kind: 'tenant',
        tenant_id: tenantId,
        signin_token_id: token.id,
        session_token_id: token.id,
        api_key_id: key.id,
        expires_at: expires,
      },
    });
  }

  it('ends every open session, admin and tenants, with their own credentials; prints how many', async () => {
    const prisma = ctx.db.prisma;
    const tenants = await Promise.all(
      ['a', 'b'].map((n) =>
        prisma.tenant.create({
          data: {
            id: newId(ID_PREFIXES.tenant),
            name: `cli-${n}`,
            admin_email: `${n}@x.example`,
            org_id: `org_cli_${n}`,
          },
        }),
      ),
    );
    const sessions = [
      await tenantSession(tenants[0]!.id, tenants[0]!.org_id),
      await tenantSession(tenants[1]!.id, tenants[1]!.org_id),
      await prisma.consoleSession.create({
        data: {
          id: newId(ID_PREFIXES.consoleSession),
          secret_hash: sha256Hex(newId('cs')),
          kind: 'admin',
          admin_token_hmac: 'x'.repeat(43),
          expires_at: new Date(Date.now() + 3600_000),
        },
      }),
    ];
    await runCli(['console-sessions', 'end-all'], ctx.config, io);
    expect(JSON.parse(out.at(-1)!)).toEqual({ console_sessions_ended: 3 });
    for (const s of sessions) {
      const row = await prisma.consoleSession.findUniqueOrThrow({ where: { id: s.id } });
      expect(row.revoked_at).toBeInstanceOf(Date);
      if (s.kind === 'tenant') {
        expect(
          (await prisma.tenantToken.findUniqueOrThrow({ where: { id: s.session_token_id! } })).revoked_at,
        ).toBeInstanceOf(Date);
        expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: s.api_key_id! } })).revoked_at).toBeInstanceOf(
          Date,
        );
      }
    }
    // a second run finds nothing open
    await runCli(['console-sessions', 'end-all'], ctx.config, io);
    expect(JSON.parse(out.at(-1)!)).toEqual({ console_sessions_ended: 0 });
  });

  it('refuses an unknown action or extra arguments', async () => {
    await expect(runCli(['console-sessions'], ctx.config, io)).rejects.toThrow(CliError);
    await expect(runCli(['console-sessions', 'end'], ctx.config, io)).rejects.toThrow(CliError);
    await expect(runCli(['console-sessions', 'end-all', '--now'], ctx.config, io)).rejects.toThrow(CliError);
  });
});
