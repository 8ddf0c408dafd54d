// The packages an enrichment will match advisories for, computed before the engine runs so the worker can read the
// candidate advisories in one query (docs/advisories.md "Enrichment"). Parsing only: no rule runs here.
import { parseManifest } from '../parse';
import { advisoryDependencies } from '../rules/vulnerable-versions';
import type { EnrichmentInput, ParsedManifest } from '../types';
import { packageNameKey } from './osv';

export interface PackageKey {
  ecosystem: string;
  name: string;
}

/** Longer than npm's 214 and PyPI's practical limit: such a name is hostile input, not a package. */
const MAX_PACKAGE_NAME = 256;

/** Distinct (ecosystem, normalized name) pairs over every observation's dependencies and the asset itself. */
export function advisoryPackageKeys(inputs: readonly EnrichmentInput[]): PackageKey[] {
  const parsed: Array<{ input: EnrichmentInput; parsed: ParsedManifest }> = [];
  for (const input of inputs) {
    try {
      parsed.push({ input, parsed: parseManifest(input) });
    } catch {
      // analyze() reports an unparseable manifest; it has no dependencies to look up
    }
  }
  return packageKeysOf(parsed);
}

/**
 * The same pairs from manifests already parsed: an analysis (analyze.ts) carries its parsed manifest, so the worker's
 * task reads the packages off the analyses instead of parsing every manifest a second time (docs/advisories.md
 * "Enrichment"). These are exactly the dependencies R23 matched in that analysis.
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
