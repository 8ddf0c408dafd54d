// Typed errors. Every non-2xx answer of either API rejects with a RiskApiError (or the subclass for its
// `type`) carrying the error envelope's fields (docs/errors.md); a request that got no answer at all rejects
// with RiskConnectionError.
import type { components } from './generated/public-api';

type Envelope = components['schemas']['ErrorEnvelope'];
export type RiskErrorType = Envelope['error']['type'];

/** Base class of every error the SDK throws. */
export class RiskError extends Error {
  override name = 'RiskError';
}

export interface RiskApiErrorFields {
  status: number;
  type: RiskErrorType;
  code: string;
  message: string;
  param?: string;
  /** the answer's `X-Request-Id` (equal to error.request_id): quote it to support; null when absent */
  request_id: string | null;
  /** seconds from the `Retry-After` header, when the server sent one */
  retry_after?: number;
  headers: Headers;
}

/** An error answer of the API: the envelope's type, code, param and request_id, and the HTTP status. */
export class RiskApiError extends RiskError {
  override name = 'RiskApiError';
  readonly status: number;
  readonly type: RiskErrorType;
  readonly code: string;
  readonly param?: string;
  readonly request_id: string | null;
  readonly retry_after?: number;
  readonly headers: Headers;

  constructor(fields: RiskApiErrorFields) {
    super(fields.message);
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    if (fields.param !== undefined) this.param = fields.param;
    this.request_id = fields.request_id;
    if (fields.retry_after !== undefined) this.retry_after = fields.retry_after;
    this.headers = fields.headers;
  }

  /** Reads an error response (consuming its body) into the subclass for its envelope's type. */
  static async fromResponse(response: Response): Promise<RiskApiError> {
    const text = await response.text().catch(() => '');
    const envelope = parseEnvelope(text);
    const retryAfter = parseRetryAfterSeconds(response.headers.get('retry-after'));
    const fields: RiskApiErrorFields = {
      status: response.status,
      // an answer that is not our envelope (a proxy's HTML page, say) is classified by its status
      type: envelope?.type ?? typeForStatus(response.status),
      code: envelope?.code ?? 'unexpected_response',
      message:
        envelope?.message ?? `HTTP ${response.status} ${response.statusText}: ${text.slice(0, 200) || '(no body)'}`,
      param: envelope?.param,
      request_id: envelope?.request_id ?? response.headers.get('x-request-id'),
      retry_after: retryAfter ?? undefined,
      headers: response.headers,
    };
    const Subclass = ERROR_CLASSES[fields.type] ?? RiskApiError;
    return new Subclass(fields);
  }
}

export class InvalidRequestError extends RiskApiError {
  override name = 'InvalidRequestError';
}
export class AuthenticationError extends RiskApiError {
  override name = 'AuthenticationError';
}
export class PermissionError extends RiskApiError {
  override name = 'PermissionError';
}
export class NotFoundError extends RiskApiError {
  override name = 'NotFoundError';
}
export class ConflictError extends RiskApiError {
  override name = 'ConflictError';
}
export class RateLimitError extends RiskApiError {
  override name = 'RateLimitError';
}
export class ApiServerError extends RiskApiError {
  override name = 'ApiServerError';
}

const ERROR_CLASSES: Record<RiskErrorType, typeof RiskApiError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  api_error: ApiServerError,
};

/** No answer: connection refused or reset, DNS failure, timeout. `attempts` counts the tries made. */
export class RiskConnectionError extends RiskError {
  override name = 'RiskConnectionError';
  constructor(
    message: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

function typeForStatus(status: number): RiskErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function parseEnvelope(text: string): Envelope['error'] | null {
  try {
    const error = (JSON.parse(text) as Partial<Envelope> | null)?.error;
    return error && typeof error.type === 'string' && typeof error.code === 'string' ? error : null;
  } catch {
    return null;
  }
}

/** `Retry-After` as seconds: either delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or invalid. */
export function parseRetryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
