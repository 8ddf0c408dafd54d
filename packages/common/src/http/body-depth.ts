import { JSON_BODY_MAX_DEPTH, jsonDepth, pathBeyondDepth } from '@risk/contracts';
import { ApiError } from '../errors';
import { formatParamPath } from './validate';

/** the limit every body of both APIs is held to (defined with the contracts, which check free-form fields by it) */
export { JSON_BODY_MAX_DEPTH };

/**
 * Refuses a parsed JSON body that nests arrays and objects deeper than JSON_BODY_MAX_DEPTH, with a 400
 * `parameter_invalid` naming the first value too deep (docs/errors.md, docs/security.md "JSON nesting depth"). It
 * runs right after the body is parsed (JSON.parse itself is iterative), before zod, size refines, canonical JSON or
 * anything else that recurses on the value: thousands of levels would otherwise overflow the stack into a 500.
 */
export function assertBodyDepth(body: unknown): void {
  if (jsonDepth(body, JSON_BODY_MAX_DEPTH) <= JSON_BODY_MAX_DEPTH) return;
  const param = formatParamPath(pathBeyondDepth(body, JSON_BODY_MAX_DEPTH) ?? []) || undefined;
  throw new ApiError('parameter_invalid', {
    param,
    message: `Invalid ${param ?? 'request body'}: a request body may nest arrays and objects at most ${JSON_BODY_MAX_DEPTH} levels deep.`,
  });
}
