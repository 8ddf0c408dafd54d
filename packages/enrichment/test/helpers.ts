import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnrichmentInput, FinalizeContext } from '../src/index';

export const FIXTURES = join(__dirname, 'fixtures');
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}
export const CTX: FinalizeContext = {
  threats: [],
  publisher: { org_count: 2, signal_count: 5, first_seen: '2026-01-01T00:00:00Z' },
  now: '2026-11-22T10:11:12.345Z',
};
export function input(over: Partial<EnrichmentInput> & { raw_manifest?: string | null }): EnrichmentInput {
  return {
    fingerprint: 'fp_test',
    asset_type: 'model',
    name: null,
    version: null,
    source_url: null,
    metadata: null,
    ...over,
  };
}
