// How deep a JSON value nests, measured without recursion (docs/security.md "JSON nesting depth"). A request body
// is refused beyond JSON_BODY_MAX_DEPTH before anything walks it recursively: zod, JSON.stringify in a size refine,
// canonical JSON for idempotency and content digests all recurse (or use native recursion) on the value's depth.
import { z } from './zod';

/**
 * The deepest nesting of arrays and objects in any request body of either API; the body itself is depth 1, so a
 * signal's `metadata` object is depth 2 and holds at most 30 more levels. No documented body comes near it (a STIX
 * bundle has its own limit of 16); V8's JSON.stringify overflows the stack at a few thousand levels.
 */
export const JSON_BODY_MAX_DEPTH = 32;

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

const childrenOf = (v: object): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/**
 * The depth of a JSON value (a primitive is 0, `{}` and `[]` are 1), iteratively: a hostile document must not
 * overflow the stack here. Stops as soon as the depth passes `limit` and returns that depth (`limit + 1`).
 */
export function jsonDepth(value: unknown, limit: number): number {
  if (!isContainer(value)) return 0;
  let max = 1;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > max) {
      max = depth;
      if (max > limit) return max;
    }
    for (const child of childrenOf(node))
      if (isContainer(child)) {
        stack.push(child);
        depths.push(depth + 1);
      }
  }
  return max;
}

/**
 * The path (`['signals', 3, 'metadata', 'x', 0, …]`) of the first array or object, in document order, that nests
 * deeper than `limit`; undefined when none does. Iterative like jsonDepth; only run once jsonDepth has found one,
 * since it keeps a path per value it visits.
 */
export function pathBeyondDepth(value: unknown, limit: number): Array<string | number> | undefined {
  if (!isContainer(value)) return undefined;
  const stack: Array<{ node: object; path: Array<string | number> }> = [{ node: value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (path.length + 1 > limit) return path;
    const entries: Array<[string | number, unknown]> = Array.isArray(node)
      ? node.map((child, i): [number, unknown] => [i, child])
      : Object.entries(node);
    // pushed last to first, so the first child is visited first
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (isContainer(child)) stack.push({ node: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * A free-form JSON object of at most `maxBytes` serialized (`metadata`). Its depth is checked before JSON.stringify
 * measures it, so the refine cannot throw whoever validates with it (the APIs refuse deeper bodies earlier).
 */
export function zFreeFormObject(maxBytes: number, sizeLabel: string) {
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (jsonDepth(value, JSON_BODY_MAX_DEPTH) > JSON_BODY_MAX_DEPTH)
      ctx.addIssue({
        code: 'custom',
        message: `must nest at most ${JSON_BODY_MAX_DEPTH} levels of arrays and objects`,
      });
    else if (Buffer.byteLength(JSON.stringify(value)) > maxBytes)
      ctx.addIssue({ code: 'custom', message: `must be at most ${sizeLabel} serialized` });
  });
}
