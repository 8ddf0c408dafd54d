// Which POSTs take an Idempotency-Key (docs: README "Idempotency and retries"): the list is generated from the
// OpenAPI documents (src/generated/idempotent-posts.ts, `pnpm --filter @risk/sdk generate`), where the route
// definitions put the header on exactly the idempotent POSTs; test/generated.test.ts fails when it is stale.
import { IDEMPOTENT_POSTS } from './generated/idempotent-posts';

export { IDEMPOTENT_POSTS };

/**
 * Whether a request path is one of the path templates (`/v1/webhooks/{webhook_id}`), compared segment by
 * segment from the end, so a base URL with a path prefix (`https://host/admin`) still matches; `{…}` matches one
 * non-empty segment. Linear in the path, no regular expression built from input.
 */
export function matchesPathTemplate(pathname: string, template: string): boolean {
  const path = pathname.split('/').filter(Boolean);
  const parts = template.split('/').filter(Boolean);
  if (path.length < parts.length) return false;
  const offset = path.length - parts.length;
  return parts.every((part, i) => (part.startsWith('{') && part.endsWith('}')) || part === path[offset + i]);
}

/** The transport's `idempotencyKeys` rule for a document: a POST to one of its idempotent paths. */
export function idempotentPostOf(templates: readonly string[]): (request: Request) => boolean {
  return (request) => {
    const { pathname } = new URL(request.url);
    return templates.some((template) => matchesPathTemplate(pathname, template));
  };
}
