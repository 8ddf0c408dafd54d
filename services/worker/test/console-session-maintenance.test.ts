// Maintenance ends console sessions that lapsed without being presented again (docs/security.md "Console sign-in
// and session credentials"): a session refused at its next request ends then, but one never presented again (an
// abandoned browser) kept its own live tenant token and API key until they expired, up to 8 h.
import { buildApiKey } from '@risk/common/api-keys';
import { sha256Hex } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import { runMaintenance } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';

let h: WorkerHarness;
beforeAll(async () => {
  h = await createWorkerHarness('consolemaint');
});
afterAll(async () => h.close());

/** a tenant session as console sign-in leaves it: the row, its own tenant token and its own API key */
async function tenantSession(input: { tenantId: string; orgId: string; signinTokenId: string; lastSeen: Date }) {
  const prisma = h.ctx.db.prisma;
  const expires = new Date(Date.now() + 4 * 3600_000);
  const token = await prisma.tenantToken.create({
    data: {
      id: newId(ID_PREFIXES.tenantToken),
      tenant_id: input.tenantId,
      name: 'console session',
      expires_at: expires,
    },
  });
  const { row: key } = buildApiKey({
    org_id: input.orgId,
    scopes: ['assets:read'],
    livemode: true,
    expires_at: expires,
  });
  await prisma.apiKey.create({ data: key });
  return prisma.consoleSession.create({
    data: {
      id: newId(ID_PREFIXES.consoleSession),
      secret_hash: sha256Hex(newId('cs')),
      kind: 'tenant',
      tenant_id: input.tenantId,
      signin_token_id: input.signinTokenId,
      session_token_id: token.id,
      api_key_id: key.id,
      created: new Date(Date.now() - 3600_000),
      last_seen_at: input.lastSeen,
      expires_at: expires,
    },
  });
}

test('revokes the credentials of idle sessions never presented again, and leaves sessions in use alone', async () => {
  const prisma = h.ctx.db.prisma;
  const tenant = await prisma.tenant.create({
    data: { id: newId(ID_PREFIXES.tenant), name: 'maint', admin_email: 'm@x.example', org_id: 'org_consolemaint_t' },
  });
  const signin = await prisma.tenantToken.create({
    data: { id: newId(ID_PREFIXES.tenantToken), tenant_id: tenant.id, expires_at: new Date(Date.now() + 86_400_000) },
  });
  const base = { tenantId: tenant.id, orgId: tenant.org_id, signinTokenId: signin.id };
  const abandoned = await tenantSession({ ...base, lastSeen: new Date(Date.now() - 45 * 60_000) });
  const inUse = await tenantSession({ ...base, lastSeen: new Date(Date.now() - 60_000) });

  const result = await runMaintenance(h.deps);
  expect(result.console_sessions_ended).toBe(1);
  const ended = await prisma.consoleSession.findUniqueOrThrow({ where: { id: abandoned.id } });
  expect(ended.revoked_at).toBeInstanceOf(Date);
  expect(
    (await prisma.tenantToken.findUniqueOrThrow({ where: { id: abandoned.session_token_id! } })).revoked_at,
  ).toBeInstanceOf(Date);
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: abandoned.api_key_id! } })).revoked_at).toBeInstanceOf(
    Date,
  );
  // the session in use, its credentials and the token typed in at sign-in are untouched
  const kept = await prisma.consoleSession.findUniqueOrThrow({ where: { id: inUse.id } });
  expect(kept.revoked_at).toBeNull();
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: inUse.api_key_id! } })).revoked_at).toBeNull();
  expect((await prisma.tenantToken.findUniqueOrThrow({ where: { id: signin.id } })).revoked_at).toBeNull();

  // the tenant is suspended: its sessions can no longer be used, so the next pass ends them too
  await prisma.tenant.update({ where: { id: tenant.id }, data: { status: 'suspended', suspended_at: new Date() } });
  expect((await runMaintenance(h.deps)).console_sessions_ended).toBe(1);
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: inUse.api_key_id! } })).revoked_at).toBeInstanceOf(Date);
});
