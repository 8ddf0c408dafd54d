// Examples in an OpenAPI document (docs/architecture.md "Examples"): every operation (and every webhook) shows an
// example of its request body and of its success response, every documented error response shows an envelope,
// and each example matches the schema it sits next to. Returns one line per problem, naming the operation, so a
// route added without examples fails with what to add.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: Json;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

function examplesOf(media: MediaType): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e) => e.value);
}

export function checkOpenApiExamples(document: unknown): string[] {
  const doc = document as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const problems: string[] = [];

  const check = (where: string, content: Record<string, MediaType> | undefined, what: string) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      const examples = examplesOf(media);
      if (examples.length === 0) {
        problems.push(`${where}: no example for the ${what} (${mediaType}); add it to the route's doc.examples`);
        continue;
      }
      if (!media.schema) continue;
      const validate = ajv.compile({ ...media.schema, components: doc.components });
      for (const example of examples) {
        // a text/plain example is a string, which its `type: string` schema accepts like any JSON value
        if (!validate(example)) {
          problems.push(
            `${where}: the ${what} example (${mediaType}) does not match its schema: ${ajv.errorsText(validate.errors)}`,
          );
        }
      }
    }
  };

  const visit = (kind: 'paths' | 'webhooks') => {
    for (const [path, item] of Object.entries(doc[kind] ?? {})) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const where = `${method.toUpperCase()} ${kind === 'webhooks' ? `webhook ${path}` : path} (${operation.operationId ?? 'no operationId'})`;
        if (operation.requestBody) check(where, operation.requestBody.content, 'request body');
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!response.content) continue;
          check(where, response.content, Number(status) < 300 ? `${status} response` : `${status} error response`);
        }
      }
    }
  };
  visit('paths');
  visit('webhooks');
  return problems;
}
