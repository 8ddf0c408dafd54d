import express, { type Request, type Response } from 'express';
import { JSON_BODY_MAX_DEPTH, jsonDepth, pathBeyondDepth } from '@risk/contracts';
import { ApiError } from '../errors';
import { formatParamPath } from './validate';

/** the limit every body of both APIs is held to (defined with the contracts, which check free-form fields by it) */

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

/**
 * body-parser's JSON reader as a promise; none for a request without a JSON body (req.body stays undefined). The
 * parsed body's nesting is bounded here (assertBodyDepth), before anything walks it recursively: every route of both
 * APIs (route.ts) and the admin API's Bull Board read their bodies through it.
 */
export function jsonBodyReader(limit: number): (req: Request, res: Response) => Promise<void> {
  const parse = express.json({ limit });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      void parse(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve()));
    }).then(() => assertBodyDepth(req.body));
}
