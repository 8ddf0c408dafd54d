// One error type for every way a firewall call can fail, with a reason a person can act on.
export type ConnectorFailureReason =
  | 'dns'
  | 'tcp_refused'
  | 'network_unreachable'
  | 'tls'
  | 'auth_rejected'
  | 'timeout'
  | 'unexpected_response'
  | 'vendor_error'
  | 'outbound_blocked'
  | 'policy_not_translatable';

export class ConnectorError extends Error {
  constructor(
    readonly reason: ConnectorFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Classify a socket/TLS error from node:https into a ConnectorError. */
export function classifyNetworkError(err: NodeJS.ErrnoException, target: string): ConnectorError {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return new ConnectorError('tcp_refused', `connection refused by ${target}`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new ConnectorError('network_unreachable', `${target} is unreachable (${code})`);
  }
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return new ConnectorError('timeout', `${target} timed out`);
  if (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    /certificate|ssl|tls/i.test(err.message)
  ) {
    return new ConnectorError('tls', `TLS handshake with ${target} failed: ${code || err.message}`);
  }
  if (code === 'ECONNRESET') return new ConnectorError('unexpected_response', `${target} reset the connection`);
  return new ConnectorError('unexpected_response', `request to ${target} failed: ${code || err.message}`);
}
