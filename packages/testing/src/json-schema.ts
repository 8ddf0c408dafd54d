// Validate a document against a JSON Schema fixture kept in this package (fixtures/schemas/<name>/, byte-for-byte
// copies of the published schemas; fixtures/schemas/SOURCES.md says where each came from). Offline: every schema file of
// a fixture is added to ajv before the root is compiled, so relative and absolute `$ref`s resolve locally.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';

export const SCHEMA_FIXTURES = join(__dirname, '..', 'fixtures', 'schemas');

/** The schema fixtures and their root schema file (relative to the fixture folder). */
export const SCHEMA_ROOTS = {
  'stix-2.1': 'schemas/common/bundle.json',
  'sarif-2.1.0': 'sarif-schema-2.1.0.json',
  'spdx-3.0.1': 'spdx-json-schema.json',
} as const;
export type SchemaFixture = keyof typeof SCHEMA_ROOTS;

export interface SchemaCheck {
  valid: boolean;
  /** ajv's errors as `instancePath: message` lines (empty when valid) */
  errors: string[];
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

function ajvFor(draft: string | undefined): Ajv {
  // unicodeRegExp off: the STIX schemas' patterns escape characters (\-) that the `u` flag rejects
  const options = { allErrors: true, strict: false, validateFormats: true, unicodeRegExp: false } as const;
  if (draft?.includes('draft-04')) return new AjvDraft04(options) as unknown as Ajv;
  if (draft?.includes('2020-12')) return new Ajv2020(options);
  return new Ajv(options);
}

const instances = new Map<SchemaFixture, { ajv: Ajv; root: ValidateFunction }>();

function load(fixture: SchemaFixture): { ajv: Ajv; root: ValidateFunction } {
  const hit = instances.get(fixture);
  if (hit) return hit;
  const dir = join(SCHEMA_FIXTURES, fixture);
  const rootPath = join(dir, SCHEMA_ROOTS[fixture]);
  const rootSchema = JSON.parse(readFileSync(rootPath, 'utf8')) as AnySchemaObject;
  const ajv = ajvFor(rootSchema.$schema as string | undefined);
  addFormats(ajv);
  // formats ajv-formats does not implement (internationalised names and IRIs): accepted as written, so a schema that
  // names them compiles quietly; the tests check these values themselves where it matters
  for (const name of ['idn-hostname', 'idn-email', 'iri', 'iri-reference']) ajv.addFormat(name, true);
  // STIX schemas reference each other by relative path from their absolute $id: adding every file under its
  // own $id lets ajv resolve them without a network
  const schemaDir = fixture === 'stix-2.1' ? join(dir, 'schemas') : dir;
  for (const file of jsonFiles(schemaDir)) {
    if (file === rootPath) continue;
    const schema = JSON.parse(readFileSync(file, 'utf8')) as AnySchemaObject;
    ajv.addSchema(schema, schema.$id ? undefined : relative(dir, file));
  }
  const loaded = { ajv, root: ajv.compile(rootSchema) };
  instances.set(fixture, loaded);
  return loaded;
}

/** The compiled validator of a fixture's root schema (cached per process). */
export function schemaValidator(fixture: SchemaFixture): ValidateFunction {
  return load(fixture).root;
}

/** Validates `doc` against the fixture's root schema, or against one of its schemas by absolute `$id`. */
export function checkAgainstSchema(fixture: SchemaFixture, doc: unknown, schemaId?: string): SchemaCheck {
  const { ajv, root } = load(fixture);
  const validate = schemaId ? ajv.getSchema(schemaId) : root;
  if (!validate) throw new Error(`no schema ${schemaId} in fixture ${fixture}`);
  const valid = validate(doc) as boolean;
  return { valid, errors: valid ? [] : formatErrors(validate.errors ?? []) };
}

/** Reads a JSON file under a fixture folder (an example bundle, the SPDX context). */
export function readSchemaFixture<T = unknown>(fixture: SchemaFixture, path: string): T {
  return JSON.parse(readFileSync(join(SCHEMA_FIXTURES, fixture, path), 'utf8')) as T;
}

function formatErrors(errors: ErrorObject[]): string[] {
  return errors.slice(0, 50).map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
}
