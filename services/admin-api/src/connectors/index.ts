import { FortinetConnector } from './fortinet';
import { PaloAltoConnector } from './palo-alto';
import type { ConnectorContext } from './https-client';
import type { FirewallConnection, FirewallConnector } from './types';

export * from './types';
export { ConnectorError, type ConnectorFailureReason } from './errors';
export { defaultConnectorContext, type ConnectorContext } from './https-client';

export type ConnectorFactory = (connection: FirewallConnection) => FirewallConnector;

export function createConnector(
  connection: FirewallConnection,
  context: ConnectorContext & { pollIntervalMs?: number },
): FirewallConnector {
  switch (connection.type) {
    case 'palo_alto':
      return new PaloAltoConnector(connection, context);
    case 'fortinet':
      return new FortinetConnector(connection, context);
  }
}
