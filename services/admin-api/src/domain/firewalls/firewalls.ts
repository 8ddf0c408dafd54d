// Firewall use cases. The api_token is encrypted (AES-256-GCM under SECRETS_KEY) before it reaches the
// database and decrypted only to build a connector; responses carry api_token_last4 only.
import {
  ApiError,
  ID_PREFIXES,
  encryptSecret,
  hostRefusal,
  keysetOrder,
  keysetWhere,
  listEnvelope,
  newId,
  paginate,
  type AllowList,
  type ListQuery,
} from '@risk/common';
import { Prisma, type PrismaClient, type Firewall } from '@risk/db';
import {
  ConnectorError,
  connectionOf,
  type FirewallConnection,
  type FirewallConnector,
  type LoggingOptions,
} from '@risk/firewalls';
import { notFound } from '../errors';
import { checkAssignmentsBeforeDelete } from '../policies/removal-state';
import { serializeFirewall } from '../serializers';

export interface FirewallDeps {
  secretsKey: string;
  allowList: AllowList;
  connectorFor: (connection: FirewallConnection) => FirewallConnector;
}

function assertHostAllowed(host: string, allowList: AllowList) {
  const refusal = hostRefusal(allowList, host, 'firewall');
  if (refusal) {
    throw new ApiError('url_not_allowed', {
      param: 'host',
      message: `host is not allowed: ${refusal}. Loopback, link-local and metadata addresses need OUTBOUND_ALLOWED_HOSTS.`,
    });
  }
}

function conflictOnName(err: unknown, name: string | undefined): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') {
    throw new ApiError('resource_already_exists', {
      param: 'name',
      message: `A firewall named '${name}' already exists.`,
    });
  }
  throw err;
}

export async function createFirewall(
  db: PrismaClient,
  deps: Pick<FirewallDeps, 'secretsKey' | 'allowList'>,
  tenantId: string,
  input: { name: string; type: string; host: string; port: number; api_token: string; verify_ssl: boolean },
) {
  assertHostAllowed(input.host, deps.allowList);
  try {
    const row = await db.firewall.create({
      data: {
        id: newId(ID_PREFIXES.firewall),
        tenant_id: tenantId,
        name: input.name,
        type: input.type,
        host: input.host.toLowerCase(),
        port: input.port,
        verify_ssl: input.verify_ssl,
        api_token_ciphertext: encryptSecret(input.api_token, deps.secretsKey),
        api_token_last4: input.api_token.slice(-4),
      },
    });
    return serializeFirewall(row);
  } catch (err) {
    return conflictOnName(err, input.name);
  }
}

export async function findFirewall(db: PrismaClient, tenantId: string, id: string): Promise<Firewall> {
  // another tenant's firewall is indistinguishable from a missing one
  const row = await db.firewall.findFirst({ where: { id, tenant_id: tenantId } });
  if (!row) throw notFound('firewall', id, 'id');
  return row;
}

export async function listFirewalls(db: PrismaClient, tenantId: string, page: ListQuery) {
  const result = await paginate(page, {
    loadCursor: (id) =>
      db.firewall.findFirst({ where: { id, tenant_id: tenantId }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.firewall.findMany({
        where: { tenant_id: tenantId, ...keysetWhere('id', { before, after }) },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    '/firewalls/v1',
    { data: result.data.map(serializeFirewall), has_more: result.has_more },
    (f) => f.id,
  );
}

export async function updateFirewall(
  db: PrismaClient,
  deps: Pick<FirewallDeps, 'secretsKey' | 'allowList'>,
  tenantId: string,
  id: string,
  input: Partial<{ name: string; type: string; host: string; port: number; api_token: string; verify_ssl: boolean }>,
) {
  const current = await findFirewall(db, tenantId, id);
  if (input.host !== undefined) assertHostAllowed(input.host, deps.allowList);
  // Only fields whose value differs are written: a client that PUTs back what it read (the connection
  // fields, never the token) changes nothing, and cannot undo a concurrent re-key by writing a stale host.
  const connection = {
    ...(input.type !== undefined && input.type !== current.type ? { type: input.type } : {}),
    ...(input.host !== undefined && input.host.toLowerCase() !== current.host
      ? { host: input.host.toLowerCase() }
      : {}),
    ...(input.port !== undefined && input.port !== current.port ? { port: input.port } : {}),
    ...(input.verify_ssl !== undefined && input.verify_ssl !== current.verify_ssl
      ? { verify_ssl: input.verify_ssl }
      : {}),
  };
  const changed = Object.keys(connection);
  // The stored token was given for one device: moving it to another host, port, vendor or certificate
  // policy would let anyone holding a tenant token send it wherever they like (docs/security.md
  // "Tenant credentials and firewall tokens").
  if (changed.length && input.api_token === undefined) {
    throw new ApiError('missing_required_param', {
      param: 'api_token',
      message: `Changing ${changed.join(', ')} requires api_token in the same request: the stored token is bound to the connection it was given for and is never sent to another one.`,
    });
  }
  const connectionChanged = changed.length > 0 || input.api_token !== undefined;
  try {
    const row = await db.firewall.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...connection,
        ...(input.api_token !== undefined
          ? {
              api_token_ciphertext: encryptSecret(input.api_token, deps.secretsKey),
              api_token_last4: input.api_token.slice(-4),
            }
          : {}),
        // a changed connection has not been tested yet
        ...(connectionChanged ? { status: 'unknown' } : {}),
      },
    });
    return serializeFirewall(row);
  } catch (err) {
    return conflictOnName(err, input.name);
  }
}

export async function deleteFirewall(db: PrismaClient, tenantId: string, id: string, force = false) {
  await findFirewall(db, tenantId, id);
  // deleting would cascade the assignments away and leave their objects on the device: unassign first
  const leftOnDevice = await checkAssignmentsBeforeDelete(db, { firewall_id: id }, force);
  await db.firewall.delete({ where: { id } });
  return { id, object: 'firewall', deleted: true as const, ...leftOnDevice };
}

function failure(err: unknown) {
  if (err instanceof ConnectorError) return { reason: err.reason, message: err.message };
  return { reason: 'unexpected_response', message: err instanceof Error ? err.message : String(err) };
}

export async function testFirewall(db: PrismaClient, deps: FirewallDeps, tenantId: string, id: string) {
  const firewall = await findFirewall(db, tenantId, id);
  const started = process.hrtime.bigint();
  let info: Awaited<ReturnType<FirewallConnector['test']>> | null = null;
  let error: { reason: string; message: string } | null = null;
  try {
    info = await deps.connectorFor(connectionOf(firewall, deps.secretsKey)).test();
  } catch (err) {
    error = failure(err);
  }
  const latency = Number((process.hrtime.bigint() - started) / 1_000_000n);
  const testedAt = new Date();
  await db.firewall.update({
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
  return {
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
}

export async function configureVendorLogging(
  db: PrismaClient,
  deps: FirewallDeps,
  tenantId: string,
  id: string,
  options: LoggingOptions,
) {
  const firewall = await findFirewall(db, tenantId, id);
  let vendorConfig: Record<string, unknown> | null = null;
  let error: { reason: string; message: string } | null = null;
  try {
    vendorConfig = (await deps.connectorFor(connectionOf(firewall, deps.secretsKey)).configureLogging(options))
      .vendor_config;
  } catch (err) {
    error = failure(err);
  }
  const updatedAt = new Date();
  await db.firewall.update({
    where: { id },
    data: {
      logging_config: { ...options, vendor_config: vendorConfig } as Prisma.InputJsonValue,
      logging_status: error ? 'failed' : 'configured',
      logging_error: error ? `${error.reason}: ${error.message}` : null,
      logging_updated_at: updatedAt,
    },
  });
  return {
    object: 'firewall_logging' as const,
    firewall_id: id,
    ok: !error,
    config: options,
    vendor_config: vendorConfig,
    error,
    updated_at: updatedAt.toISOString(),
  };
}
