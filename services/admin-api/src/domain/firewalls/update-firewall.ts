// The api_token is encrypted (AES-256-GCM under SECRETS_KEY) before it reaches the database and decrypted
// only to build a connector; responses carry api_token_last4 only.
import { encryptSecret } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import type { FirewallWrite } from '@risk/firewalls';
import type { AdminDeps } from '../deps';
import { serializeFirewall } from '../serializers';
import { assertHostAllowed, conflictOnName } from './firewall-checks';
import { findFirewall } from './find-firewall';

export async function updateFirewall(
  deps: Pick<AdminDeps, 'prisma' | 'firewalls'>,
  request: {
    tenantId: string;
    id: string;
    changes: Partial<FirewallWrite>;
  },
) {
  const { prisma } = deps;
  const { id, changes: input } = request;
  const current = await findFirewall(prisma, request.tenantId, id);
  if (input.host !== undefined) assertHostAllowed(input.host, deps.firewalls.allowList);
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
    const row = await prisma.firewall.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...connection,
        ...(input.api_token !== undefined
          ? {
              api_token_ciphertext: encryptSecret(input.api_token, deps.firewalls.secretsKey),
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
