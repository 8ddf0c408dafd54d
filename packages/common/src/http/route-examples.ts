// The examples of a route's OpenAPI operation (docs/architecture.md "Examples"): the route definition's own request
// and success examples, and for every error status it documents a typical envelope, built with ApiError so the
// example's type and status are the ones the error table (errors.ts) gives the code.
import type { ResponseConfig } from '@risk/contracts';
import { ApiError, ERROR_CODES } from '../errors';
import type { RouteExamples } from './route-spec';

/** A request id as the APIs mint them (ids.ts newRequestId): the examples show one shape throughout. */
export const EXAMPLE_REQUEST_ID = 'req_01jdb7w4q6f3c2h9xk5m8n0p1r';

type ErrorExample = NonNullable<RouteExamples['errors']>[number];

/**
 * The typical error of a status, per credential: what an integrator meets first (a mistyped field, a missing
 * scope, an id that does not exist). A route with a more telling one passes `examples.errors[status]`.
 */
function defaultError(status: number, credential: 'api_key' | 'token' | 'none', hasBody: boolean): ErrorExample {
  switch (status) {
    case 400:
      return hasBody
        ? { code: 'parameter_unknown', param: 'colour', message: 'Received unknown parameter: colour.' }
        : {
            code: 'parameter_invalid',
            param: 'limit',
            message: 'Invalid limit: Too big: expected number to be <=100.',
          };
    case 401:
      return credential === 'api_key'
        ? { code: 'api_key_invalid', message: 'Invalid API key provided.' }
        : { code: 'token_invalid', message: 'Invalid bearer token.' };
    case 403:
      return credential === 'api_key'
        ? { code: 'insufficient_scope', message: "This API key lacks the 'assets:read' scope required by this route." }
        : { code: 'admin_token_required', message: 'This route needs the admin token (ADMIN_API_TOKEN).' };
    case 404:
      return { code: 'resource_missing', message: 'No such resource: we_01jdb7w4q6f3c2h9xk5m8n0p1r.' };
    case 409:
      return {
        code: 'idempotency_key_in_use',
        message: 'A request with this Idempotency-Key is still being processed; retry after it completes.',
      };
    case 413:
      return { code: 'request_too_large', message: 'The request body is larger than 2097152 bytes.' };
    case 415:
      return { code: 'unsupported_media_type', message: "Send the body as 'Content-Type: application/json'." };
    case 429:
      return {
        code: 'rate_limited',
        message: "Too many requests: the 'live' limit is 100 per 1 s. Retry after 1 s.",
      };
    case 503:
      return { code: 'service_unavailable', message: 'A dependency (Postgres or Redis) is not reachable.' };
    default:
      return { code: 'internal_error', message: 'An unexpected error occurred; quote the request_id to support.' };
  }
}

/** Which kind of credential an operation's security requirement names (its 401 and 403 examples differ). */
function credentialOf(security: Array<Record<string, string[]>>): 'api_key' | 'token' | 'none' {
  const schemes = security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('apiKey')) return 'api_key';
  return schemes.length > 0 ? 'token' : 'none';
}

/** A copy of each envelope response with its example (the shared response objects of errorResponses stay clean). */
export function withErrorExamples(
  responses: Record<number, ResponseConfig>,
  opts: { examples?: RouteExamples; security: Array<Record<string, string[]>>; hasBody: boolean },
): Record<number, ResponseConfig> {
  const credential = credentialOf(opts.security);
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const json = response.content?.['application/json'];
      if (!json || 'example' in json) return [status, response];
      const given = opts.examples?.errors?.[Number(status)];
      const example = given ?? defaultError(Number(status), credential, opts.hasBody);
      // a code of another status would contradict the response it illustrates (errors.ts ERROR_CODES)
      if (ERROR_CODES[example.code].status !== Number(status) && !(example.code === 'internal_error'))
        throw new Error(`example error ${example.code} is a ${ERROR_CODES[example.code].status}, not a ${status}`);
      const error = new ApiError(example.code, { message: example.message, param: example.param });
      return [
        status,
        {
          ...response,
          content: {
            ...response.content,
            'application/json': { ...json, example: error.toEnvelope(EXAMPLE_REQUEST_ID) },
          },
        },
      ];
    }),
  );
}
