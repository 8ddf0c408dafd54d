// A new firewall row. The api_token is encrypted (AES-256-GCM under SECRETS_KEY) before it reaches the
// database and decrypted only to build a connector (docs/security.md "Tenant credentials and firewall tokens").
// Shared by the admin API's use case (which checks the host first) and the worker's tests.
import { encryptSecret } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import type { PrismaClient } from '@risk/db';

export interface FirewallWrite {
  name: string;
  type: string;
  host: string;
  port: number;
  api_token: string;
  verify_ssl: boolean;
}

/** Inserts the firewall; returns the row. A taken name throws P2002. */
export async function insertFirewall(
  prisma: PrismaClient,
  input: { tenantId: string; firewall: FirewallWrite; secretsKey: string },
) {
  const { firewall } = input;
  return prisma.firewall.create({
    data: {
      id: newId(ID_PREFIXES.firewall),
      tenant_id: input.tenantId,
      name: firewall.name,
      type: firewall.type,
      host: firewall.host.toLowerCase(),
      port: firewall.port,
      verify_ssl: firewall.verify_ssl,
      api_token_ciphertext: encryptSecret(firewall.api_token, input.secretsKey),
      api_token_last4: firewall.api_token.slice(-4),
    },
  });
}
