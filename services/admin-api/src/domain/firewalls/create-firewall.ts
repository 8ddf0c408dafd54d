// The api_token is encrypted before it reaches the database (@risk/firewalls insertFirewall); responses
// carry api_token_last4 only.
import { insertFirewall } from '@risk/firewalls';
import type { AdminDeps } from '../deps';
import { serializeFirewall } from '../serializers';
import { assertHostAllowed, conflictOnName } from './firewall-checks';

export async function createFirewall(
  deps: Pick<AdminDeps, 'prisma' | 'firewalls'>,
  input: {
    tenantId: string;
    firewall: { name: string; type: string; host: string; port: number; api_token: string; verify_ssl: boolean };
  },
) {
  const { firewall } = input;
  assertHostAllowed(firewall.host, deps.firewalls.allowList);
  try {
    const row = await insertFirewall(deps.prisma, {
      tenantId: input.tenantId,
      firewall,
      secretsKey: deps.firewalls.secretsKey,
    });
    return serializeFirewall(row);
  } catch (err) {
    return conflictOnName(err, firewall.name);
  }
}
