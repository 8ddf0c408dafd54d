import { checkAgainstSchema, readSchemaFixture } from './json-schema';

const STIX_EXAMPLES = [
  'indicator-for-c2-ip-address.json',
  'indicator-to-campaign-relationship.json',
  'indicators-for-C2-with-COA.json',
  'infrastructure.json',
  'malicious-email-indicator-with-attachment.json',
  'threat-reports/apt1.json',
  'threat-reports/poisonivy.json',
];

describe('schema fixtures (offline ajv)', () => {
  it.each(STIX_EXAMPLES)('the STIX 2.1 example bundle %s is valid', (file) => {
    expect(checkAgainstSchema('stix-2.1', readSchemaFixture('stix-2.1', `examples/${file}`))).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('rejects a STIX bundle with a bad id and an indicator without a pattern', () => {
    const bad = { type: 'bundle', id: 'bundle--nope', objects: [{ type: 'indicator', spec_version: '2.1' }] };
    const check = checkAgainstSchema('stix-2.1', bad);
    expect(check.valid).toBe(false);
    expect(check.errors.length).toBeGreaterThan(0);
  });

  it('validates one STIX object against its own schema by $id', () => {
    const id =
      'http://raw.githubusercontent.com/oasis-open/cti-stix2-json-schemas/stix2.1/schemas/sdos/vulnerability.json';
    const vuln = {
      type: 'vulnerability',
      spec_version: '2.1',
      id: 'vulnerability--0c7b5b88-8ff7-4a4d-aa9d-feb398cd0061',
      created: '2024-01-01T00:00:00.000Z',
      modified: '2024-01-01T00:00:00.000Z',
      name: 'CVE-2024-1',
    };
    expect(checkAgainstSchema('stix-2.1', vuln, id).valid).toBe(true);
    expect(checkAgainstSchema('stix-2.1', { ...vuln, type: 'malware' }, id).valid).toBe(false);
  });

  it('checks SARIF 2.1.0 (draft-04) and SPDX 3.0.1 (2020-12) documents', () => {
    expect(checkAgainstSchema('sarif-2.1.0', { version: '2.1.0', runs: [] }).valid).toBe(true);
    expect(checkAgainstSchema('sarif-2.1.0', { version: '2.0.0', runs: [] }).valid).toBe(false);
    expect(checkAgainstSchema('spdx-3.0.1', { '@graph': [] }).valid).toBe(false);
  });
});
