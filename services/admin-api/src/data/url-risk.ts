// The URL-risk lists score-url needs (suspicious TLDs, shorteners, credential keywords, brand labels). Facts live in
// url-risk-lists.json beside this module, with a `_source`; the brand index also draws on the AI domain list.
import { aiDomains } from '@risk/firewalls';
import { parse as parseDomain } from 'tldts';
import riskListsFile from './url-risk-lists.json';

export const riskLists = {
  suspiciousTlds: new Set(riskListsFile.suspicious_tlds),
  shorteners: new Set(riskListsFile.shorteners),
  credentialKeywords: riskListsFile.credential_keywords,
  /** brand label → the registrable domains that legitimately carry it */
  brands: buildBrandIndex(riskListsFile.extra_brands),
};

function buildBrandIndex(extra: string[]): Map<string, Set<string>> {
  const brands = new Map<string, Set<string>>();
  for (const entry of aiDomains) {
    const parsed = parseDomain(entry.domain);
    const label = parsed.domainWithoutSuffix;
    const registrable = parsed.domain;
    if (!label || !registrable || label.length < 4) continue;
    if (!brands.has(label)) brands.set(label, new Set());
    brands.get(label)!.add(registrable);
  }
  for (const brand of extra) {
    if (!brands.has(brand)) brands.set(brand, new Set());
  }
  // extra brands whose real domains differ from the label
  const real: Record<string, string[]> = {
    openai: ['openai.com', 'chatgpt.com', 'oaiusercontent.com'],
    chatgpt: ['chatgpt.com', 'openai.com'],
    claude: ['claude.ai', 'anthropic.com'],
    anthropic: ['anthropic.com', 'claude.ai'],
    gemini: ['google.com'],
    copilot: ['microsoft.com', 'github.com', 'cloud.microsoft'],
    huggingface: ['huggingface.co'],
    grok: ['grok.com', 'x.ai'],
  };
  for (const [brand, domains] of Object.entries(real)) {
    const set = brands.get(brand) ?? new Set<string>();
    domains.forEach((d) => set.add(d));
    brands.set(brand, set);
  }
  return brands;
}
