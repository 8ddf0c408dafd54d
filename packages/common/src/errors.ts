/**
 * One error class and one table: domain code throws `new ApiError(code, {...})`; only the express
 * error handler turns it into the spec's envelope. Every code is documented in docs/errors.md.
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export const ERROR_CODES = {
  missing_required_param: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_invalid_integer: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  parameters_exclusive: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  resource_missing: { status: 404, type: 'not_found_error' },
  route_not_found: { status: 404, type: 'not_found_error' },
  asset_not_enriched: { status: 404, type: 'not_found_error' },
  idempotency_key_missing: { status: 400, type: 'invalid_request_error' },
  idempotency_key_invalid: { status: 400, type: 'invalid_request_error' },
  idempotency_replay_mismatch: { status: 400, type: 'invalid_request_error' },
  idempotency_key_in_use: { status: 409, type: 'conflict_error' },
  resource_already_exists: { status: 409, type: 'conflict_error' },
  version_conflict: { status: 409, type: 'conflict_error' },
  api_key_missing: { status: 401, type: 'authentication_error' },
  api_key_invalid: { status: 401, type: 'authentication_error' },
  api_key_expired: { status: 401, type: 'authentication_error' },
  api_key_revoked: { status: 401, type: 'authentication_error' },
  token_missing: { status: 401, type: 'authentication_error' },
  token_invalid: { status: 401, type: 'authentication_error' },
  token_expired: { status: 401, type: 'authentication_error' },
  token_revoked: { status: 401, type: 'authentication_error' },
  token_exhausted: { status: 401, type: 'authentication_error' },
  insufficient_scope: { status: 403, type: 'permission_error' },
  org_mismatch: { status: 403, type: 'permission_error' },
  not_owner: { status: 403, type: 'permission_error' },
  admin_token_required: { status: 403, type: 'permission_error' },
  tenant_token_required: { status: 403, type: 'permission_error' },
  tenant_suspended: { status: 403, type: 'permission_error' },
  session_missing: { status: 401, type: 'authentication_error' },
  session_expired: { status: 401, type: 'authentication_error' },
  session_revoked: { status: 401, type: 'authentication_error' },
  csrf_check_failed: { status: 403, type: 'permission_error' },
  tenant_session_required: { status: 403, type: 'permission_error' },
  invalid_rule_order: { status: 400, type: 'invalid_request_error' },
  policy_assigned: { status: 409, type: 'conflict_error' },
  policy_removal_failed: { status: 409, type: 'conflict_error' },
  policy_removal_in_progress: { status: 409, type: 'conflict_error' },
  url_not_allowed: { status: 400, type: 'invalid_request_error' },
  request_too_large: { status: 413, type: 'invalid_request_error' },
  headers_too_large: { status: 431, type: 'invalid_request_error' },
  malformed_request: { status: 400, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  threat_write_limit_reached: { status: 429, type: 'rate_limit_error' },
  webhook_endpoint_limit_reached: { status: 400, type: 'invalid_request_error' },
  suppression_limit_reached: { status: 400, type: 'invalid_request_error' },
  api_key_limit_reached: { status: 400, type: 'invalid_request_error' },
  api_key_managed_by_deployment_token: { status: 409, type: 'conflict_error' },
  expand_limit_exceeded: { status: 400, type: 'invalid_request_error' },
  service_unavailable: { status: 503, type: 'api_error' },
  internal_error: { status: 500, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: ErrorType }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    opts: {
      message?: string;
      param?: string;
      headers?: Record<string, string>;
      status?: number;
      type?: ErrorType;
    } = {},
  ) {
    super(opts.message ?? defaultMessage(code, opts.param));
    // status overrides the table only where docs/public-api.md says so (an unknown cursor: 400 resource_missing)
    this.status = opts.status ?? ERROR_CODES[code].status;
    this.type = opts.type ?? ERROR_CODES[code].type;
    this.param = opts.param;
    this.headers = opts.headers;
  }

  toEnvelope(requestId: string): ErrorEnvelope {
    return {
      error: {
        type: this.type,
        code: this.code,
        ...(this.param !== undefined ? { param: this.param } : {}),
        message: this.message,
        request_id: requestId,
      },
    };
  }
}

export interface ErrorEnvelope {
  error: { type: ErrorType; code: string; param?: string; message: string; request_id: string };
}

function defaultMessage(code: ErrorCode, param?: string): string {
  switch (code) {
    case 'missing_required_param':
      return `Missing required param: ${param}.`;
    case 'parameter_unknown':
      return `Received unknown parameter: ${param}.`;
    case 'parameter_invalid':
      return `Invalid value for ${param}.`;
    case 'internal_error':
      return 'An unexpected error occurred. Retry later; if it persists, contact support with the request_id.';
    default:
      return code.replace(/_/g, ' ');
  }
}
