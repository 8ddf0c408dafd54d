// A connector failure as the API reports it (the connection itself: @risk/firewalls connectionOf).
import { ConnectorError } from '@risk/firewalls';

export function connectorFailure(err: unknown) {
  if (err instanceof ConnectorError) return { reason: err.reason, message: err.message };
  return { reason: 'unexpected_response', message: err instanceof Error ? err.message : String(err) };
}
