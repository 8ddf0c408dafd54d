// A firewall row → the connection a connector is built from: the api_token is decrypted here, for the call
// only (docs/firewalls.md "Sync").
import { decryptSecret } from '@risk/common/crypto';
import type { Firewall } from '@risk/db';
import type { FirewallConnection } from '../connector/types';
import type { FirewallType } from '../registry';

export function connectionOf(firewall: Firewall, secretsKey: string): FirewallConnection {
  return {
    type: firewall.type as FirewallType,
    host: firewall.host,
    port: firewall.port,
    verify_ssl: firewall.verify_ssl,
    api_token: decryptSecret(firewall.api_token_ciphertext, secretsKey),
  };
}
