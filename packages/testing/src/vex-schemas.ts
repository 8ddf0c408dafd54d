import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validators for exported VEX documents (docs/triage.md "VEX export"): OpenVEX 0.2.0 (draft 2020-12) and
 * CycloneDX 1.6 (draft-07, with the SPDX licence list and JSF schemas it refers to), from the copies in
 * packages/testing/schemas (README there names their upstream commits).
 */
const SCHEMAS = join(__dirname, '../schemas');
const load = (path: string) => JSON.parse(readFileSync(join(SCHEMAS, path), 'utf8')) as Record<string, unknown>;

/** The IRI formats ajv-formats lacks: an absolute IRI has a scheme, a reference holds no blank. */
function iriFormats(ajv: Ajv | Ajv2020): void {
  const absolute = (s: string) => {
    try {
      return new URL(s).protocol.length > 1 && !/\s/.test(s);
    } catch {
      return false;
    }
  };
  ajv.addFormat('iri', absolute);
  ajv.addFormat('iri-reference', (s: string) => !/\s/.test(s));
  ajv.addFormat('idn-email', (s: string) => s.includes('@'));
}

const openvexAjv = new Ajv2020({ allErrors: true, strict: false });
addFormats(openvexAjv);
iriFormats(openvexAjv);
export const validateOpenVex = openvexAjv.compile(load('openvex-0.2.0/openvex_json_schema.json'));

const cdxAjv = new Ajv({ allErrors: true, strict: false });
addFormats(cdxAjv);
iriFormats(cdxAjv);
cdxAjv.addSchema(load('cyclonedx-1.6/spdx.schema.json'));
cdxAjv.addSchema(load('cyclonedx-1.6/jsf-0.82.schema.json'));
export const validateCycloneDx = cdxAjv.compile(load('cyclonedx-1.6/bom-1.6.schema.json'));
