import type { Prisma } from '@risk/db';
import { connectionOf, type LoggingOptions } from '@risk/firewalls';
import type { AdminDeps } from '../deps';
import { connectorFailure } from './connection';
import { findFirewall } from './find-firewall';

/** Pushes a syslog server profile to the firewall; the outcome is stored on the firewall and logged. */
export async function configureVendorLogging(
  deps: Pick<AdminDeps, 'prisma' | 'firewalls' | 'logger'>,
  input: { tenantId: string; id: string; options: LoggingOptions },
) {
  const { prisma } = deps;
  const { id, tenantId, options } = input;
  const firewall = await findFirewall(prisma, tenantId, id);
  let vendorConfig: Record<string, unknown> | null = null;
  let error: { reason: string; message: string } | null = null;
  try {
    vendorConfig = (
      await deps.firewalls.connectorFor(connectionOf(firewall, deps.firewalls.secretsKey)).configureLogging(options)
    ).vendor_config;
  } catch (err) {
    error = connectorFailure(err);
  }
  const updatedAt = new Date();
  await prisma.firewall.update({
    where: { id },
    data: {
      logging_config: { ...options, vendor_config: vendorConfig } as Prisma.InputJsonValue,
      logging_status: error ? 'failed' : 'configured',
      logging_error: error ? `${error.reason}: ${error.message}` : null,
      logging_updated_at: updatedAt,
    },
  });
  const result = {
    object: 'firewall_logging' as const,
    firewall_id: id,
    ok: !error,
    config: options,
    vendor_config: vendorConfig,
    error,
    updated_at: updatedAt.toISOString(),
  };
  deps.logger.info('firewall logging configured', {
    tenant_id: tenantId,
    firewall_id: result.firewall_id,
    ok: result.ok,
    error: result.error,
  });
  return result;
}
