// Renders src/generated/*.ts from the OpenAPI documents that the services serve, built in-process by the same
// functions (no server, no database): `pnpm --filter @risk/sdk generate` writes them, and
// test/generated.test.ts renders them again and fails when the checked-in files differ.
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import * as prettier from 'prettier';
import { buildAdminOpenApiDocument } from '@risk/admin-api';
import { buildPublicOpenApiDocument } from '@risk/public-api';

export const GENERATED_DIR = path.join(__dirname, '..', 'src', 'generated');
export const GENERATE_COMMAND = 'pnpm --filter @risk/sdk generate';

/** The documents the SDK is generated from, by output file name. The servers entry does not reach the types
 * (the public one is the default PUBLIC_API_BASE_URL, packages/common/src/config.ts). */
export function openApiDocuments(): Record<string, unknown> {
  return {
    'public-api.ts': buildPublicOpenApiDocument('http://127.0.0.1:8080'),
    'admin-api.ts': buildAdminOpenApiDocument(),
  };
}

/** File name → TypeScript source (prettier-formatted, as the repository's other sources). */
export async function renderGeneratedFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const documents = openApiDocuments();
  for (const [name, document] of Object.entries(documents)) {
    const ast = await openapiTS(idempotencyKeyOptional(document), {
      silent: true,
      alphabetize: true,
      // a field with a default is optional to the caller (the server fills it in), not required
      defaultNonNullable: false,
      // the public document's enums also as value lists (e.g. `triageBodyStateValues`), which the console renders
      // instead of copies; not the admin document's, whose nullable objects openapi-typescript's value types
      // cannot index
      enumValues: name === 'public-api.ts',
    });
    const source =
      COMMENT_HEADER.replace(
        'Do not make direct changes to the file.',
        `Do not make direct changes to the file: run \`${GENERATE_COMMAND}\`.`,
      ) + astToString(ast);
    const filepath = path.join(GENERATED_DIR, name);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    files[name] = await prettier.format(source, { ...options, filepath });
  }
  files[IDEMPOTENT_POSTS_FILE] = await renderIdempotentPosts(documents);
  return files;
}

const IDEMPOTENT_POSTS_FILE = 'idempotent-posts.ts';

/**
 * The POST operations that take an `Idempotency-Key` header, per document, as path templates: the route
 * definitions put the header on exactly the idempotent POSTs (packages/common/src/http/route-openapi.ts), so the
 * SDK's transport keys and retries those and no other POST (src/idempotent-posts.ts), with no list kept by hand.
 */
export function idempotentPosts(document: unknown): string[] {
  const paths = (document as OpenAPI3).paths ?? {};
  return Object.entries(paths)
    .filter(([, item]) => ((item as Record<string, Operation | undefined>).post?.parameters ?? []).some(isKeyHeader))
    .map(([template]) => template)
    .sort();
}

const isKeyHeader = (parameter: NonNullable<Operation['parameters']>[number]) =>
  parameter.in === 'header' && parameter.name?.toLowerCase() === 'idempotency-key';

async function renderIdempotentPosts(documents: Record<string, unknown>): Promise<string> {
  const lists = Object.entries(documents).map(
    ([name, document]) => `  '${name.replace(/\.ts$/, '')}': ${JSON.stringify(idempotentPosts(document))},`,
  );
  const source =
    `// Generated from the OpenAPI documents by \`${GENERATE_COMMAND}\` (scripts/openapi-types.ts): do not edit.\n` +
    '/** The POST operations that take an Idempotency-Key header, per document, as path templates. */\n' +
    `export const IDEMPOTENT_POSTS = {\n${lists.join('\n')}\n} as const;\n`;
  const filepath = path.join(GENERATED_DIR, IDEMPOTENT_POSTS_FILE);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(source, { ...options, filepath });
}

type Operation = { parameters?: Array<{ in?: string; name?: string; required?: boolean; description?: string }> };

/**
 * A copy of the document in which the `Idempotency-Key` header is optional: the SDK's transport sets one on
 * every POST (src/retry.ts), so callers need not, though they may pass their own to tie a retry to a write.
 */
function idempotencyKeyOptional(document: unknown): OpenAPI3 {
  const copy = structuredClone(document) as OpenAPI3; // openapi-typescript also annotates what it is given
  for (const item of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, Operation>)) {
      for (const parameter of operation?.parameters ?? []) {
        if (isKeyHeader(parameter)) {
          parameter.required = false;
          parameter.description = `${parameter.description ?? ''} (the SDK sends a UUID when none is given)`.trim();
        }
      }
    }
  }
  return copy;
}
