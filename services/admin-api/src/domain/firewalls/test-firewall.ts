import type { RequestGuard } from '@risk/common/http';
import { connectionOf, type FirewallConnector } from '@risk/firewalls';
import type { AdminDeps } from '../deps';
import { connectorFailure } from './connection';
import { findFirewall } from './find-firewall';

/**
 * The vendor's status call; the outcome is stored on the firewall and logged. Each test connects to a host the
 * tenant chose and parses its reply, so tests are limited per firewall (FIREWALL_TESTS_PER_MINUTE, counted once the
 * firewall is found to be the tenant's: another tenant cannot use up its allowance; docs/security.md "Firewall
 * replies").
 */
export async function testFirewall(
  deps: Pick<AdminDeps, 'prisma' | 'firewalls' | 'logger'> & { guard: Pick<RequestGuard, 'countFirewallTest'> },
  input: { tenantId: string; id: string },
) {
  const { prisma } = deps;
  const { id, tenantId } = input;
  const firewall = await findFirewall(prisma, tenantId, id);
  await deps.guard.countFirewallTest(firewall.id);
  const started = process.hrtime.bigint();
  let info: Awaited<ReturnType<FirewallConnector['test']>> | null = null;
  let error: { reason: string; message: string } | null = null;
  try {
    info = await deps.firewalls.connectorFor(connectionOf(firewall, deps.firewalls.secretsKey)).test();
  } catch (err) {
    error = connectorFailure(err);
  }
  const latency = Number((process.hrtime.bigint() - started) / 1_000_000n);
  const testedAt = new Date();
  await prisma.firewall.update({
    where: { id },
    data: {
      status: info ? 'connected' : 'error',
      last_test_at: testedAt,
      last_test_ok: !!info,
      last_test_latency_ms: latency,
      last_test_error: error ? `${error.reason}: ${error.message}` : null,
      ...(info ? { model: info.model, sw_version: info.version } : {}),
    },
  });
  const result = {
    object: 'firewall_test' as const,
    firewall_id: id,
    ok: !!info,
    status: info ? ('connected' as const) : ('error' as const),
    latency_ms: latency,
    model: info?.model ?? null,
    version: info?.version ?? null,
    hostname: info?.hostname ?? null,
    serial: info?.serial ?? null,
    error,
    tested_at: testedAt.toISOString(),
  };
  deps.logger.info('firewall test', {
    tenant_id: tenantId,
    firewall_id: result.firewall_id,
    ok: result.ok,
    latency_ms: result.latency_ms,
    error: result.error,
  });
  return result;
}
