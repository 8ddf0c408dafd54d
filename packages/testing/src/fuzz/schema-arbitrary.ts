import fc from 'fast-check';

/**
 * Valid-looking values from an OpenAPI (JSON Schema) schema, for the fuzz suites (docs/reliability.md "Fuzz"):
 * objects with their required properties and some optional ones, enums, bounded strings, numbers and arrays,
 * the schema's example now and then. `pattern` is not honoured (no RegExp is built from a document:
 * `pnpm check:redos`), so a patterned string is its example or an arbitrary one — which is the point of fuzzing.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
};

export interface SchemaDocument {
  components?: { schemas?: Record<string, JsonSchema> };
}

const MAX_DEPTH = 4;

export function resolveRef(doc: SchemaDocument, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let hops = 0; s.$ref && hops < 10; hops++) {
    const name = s.$ref.slice(s.$ref.lastIndexOf('/') + 1);
    s = doc.components?.schemas?.[name] ?? {};
  }
  return s;
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  return fc.string({ minLength: min, maxLength: max });
}

export function schemaArbitrary(doc: SchemaDocument, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(doc, schema);
  if (depth > MAX_DEPTH) return fc.constant(null);
  const base = baseArbitrary(doc, s, depth);
  return s.example !== undefined ? fc.oneof({ arbitrary: base, weight: 3 }, fc.constant(s.example)) : base;
}

function baseArbitrary(doc: SchemaDocument, s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => schemaArbitrary(doc, a, depth + 1)));
  if (s.allOf?.length) {
    const merged = s.allOf.map((part) => resolveRef(doc, part));
    return schemaArbitrary(
      doc,
      {
        type: 'object',
        properties: Object.assign({}, ...merged.map((m) => m.properties ?? {})),
        required: merged.flatMap((m) => m.required ?? []),
      },
      depth + 1,
    );
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schemaArbitrary(doc, s.items ?? {}, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3)),
      });
    case 'object': {
      const props = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, schemaArbitrary(doc, v, depth + 1)]),
      );
      const requiredKeys = (s.required ?? []).filter((k) => k in props);
      return fc.record(props, { requiredKeys });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
