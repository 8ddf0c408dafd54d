// The packages an enrichment matches advisories for, read off its analyses' parsed manifests (each manifest is parsed
// once), so the worker can read the candidate advisories in one query (docs/advisories.md "Enrichment").
import { advisoryDependencies } from '../rules/vulnerable-versions';
import type { EnrichmentInput, ParsedManifest } from '../types';
import { packageNameKey } from './osv';

export interface PackageKey {
  ecosystem: string;
  name: string;
}

/** Longer than npm's 214 and PyPI's practical limit: such a name is hostile input, not a package. */
const MAX_PACKAGE_NAME = 256;

/**
 * Distinct (ecosystem, normalized name) pairs over every observation's dependencies and the asset itself, from its
 * parsed manifest (an analysis, analyze.ts, carries both): exactly the dependencies R23 matched in that analysis.
 */
export function packageKeysOf(
  observations: ReadonlyArray<{ input: EnrichmentInput; parsed: ParsedManifest }>,
): PackageKey[] {
  const out = new Map<string, PackageKey>();
  for (const { input, parsed } of observations) {
    for (const d of advisoryDependencies(parsed, input)) {
      const name = packageNameKey(d.ecosystem, d.name);
      // a name no registry accepts (NUL, which Postgres cannot store either, or longer than any registry allows)
      // matches no advisory: it is not looked up (docs/advisories.md "Enrichment")
      if (name.length === 0 || name.length > MAX_PACKAGE_NAME || name.includes('\u0000')) continue;
      out.set(`${d.ecosystem}:${name}`, { ecosystem: d.ecosystem, name });
    }
  }
  return [...out.values()];
}
