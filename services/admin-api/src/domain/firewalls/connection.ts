// From a stored firewall to a connector call: the decrypted connection, and a connector failure as the API reports it.
import { decryptSecret } from '@risk/common';
import type { Firewall } from '@risk/db';
import { ConnectorError, type FirewallConnection } from '../../connectors';

export function connectionOf(firewall: Firewall, secretsKey: string): FirewallConnection {
  return {
    type: firewall.type as FirewallConnection['type'],
    host: firewall.host,
    port: firewall.port,
    verify_ssl: firewall.verify_ssl,
    api_token: decryptSecret(firewall.api_token_ciphertext, secretsKey),
  };
}

export function connectorFailure(err: unknown) {
  if (err instanceof ConnectorError) return { reason: err.reason, message: err.message };
  return { reason: 'unexpected_response', message: err instanceof Error ? err.message : String(err) };
}
