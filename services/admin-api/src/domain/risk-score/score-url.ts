// Transparent URL risk score (docs/admin-api.md "URL risk score"): an additive 0–100 score from named
// factors, each returned with its points and evidence. Pure: no I/O, deterministic for a given URL.
import { domainToUnicode } from 'node:url';
import { distance } from 'fastest-levenshtein';
import { parse as parseDomain } from 'tldts';
import { AI_PARENT_CATEGORY, shippedCatalog, type CategoryCatalog } from '@risk/firewalls';
import { riskLists } from '../../data/url-risk';
import { severityForScore, type RiskSeverity } from '@risk/contracts';

export interface RiskFactor {
  code: string;
  points: number;
  evidence: string;
}

export interface UrlRiskScore {
  url: string;
  normalized_url: string;
  host: string;
  registrable_domain: string | null;
  categories: string[];
  ai_category: string | null;
  vendor: string | null;
  risk_score: number;
  severity: RiskSeverity;
  factors: RiskFactor[];
  scoring_version: string;
}

export class UrlParseError extends Error {}

export const SCORING_VERSION = '1';

// Latin look-alikes from Cyrillic and Greek (the usual IDN homograph set).
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ɡ: 'g',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  ι: 'i',
  κ: 'k',
  χ: 'x',
  ε: 'e',
  υ: 'u',
};

function foldConfusables(label: string): string {
  return [...label].map((ch) => CONFUSABLES[ch] ?? ch).join('');
}

function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const ch of label) {
    if (/\p{Script=Latin}/u.test(ch)) scripts.add('Latin');
    else if (/\p{Script=Cyrillic}/u.test(ch)) scripts.add('Cyrillic');
    else if (/\p{Script=Greek}/u.test(ch)) scripts.add('Greek');
    else if (/\p{Script=Han}/u.test(ch)) scripts.add('Han');
    else if (/\p{Script=Arabic}/u.test(ch)) scripts.add('Arabic');
  }
  return scripts;
}

function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

const IPV4_INTEGER = /^(0x[0-9a-f]+|\d+)$/i;

/** Parse a URL the way a browser would; a bare host gets https://. Throws UrlParseError. */
export function normalizeUrl(input: string): URL {
  const trimmed = input.trim();
  if (!trimmed) throw new UrlParseError('url is empty');
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+:\d+(\/|$)/.test(trimmed);
  try {
    const url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname) {
      throw new UrlParseError('url has no host');
    }
    return url;
  } catch (err) {
    if (err instanceof UrlParseError) throw err;
    throw new UrlParseError(`url is not a valid URL: ${trimmed.slice(0, 200)}`);
  }
}

/** `catalog`: the category data to classify the host with (the shipped lists unless the caller loaded the merged ones). */
export function scoreUrl(input: string, catalog: CategoryCatalog = shippedCatalog): UrlRiskScore {
  const url = normalizeUrl(input);
  const factors: RiskFactor[] = [];
  const add = (code: string, points: number, evidence: string) => factors.push({ code, points, evidence });

  if (url.protocol === 'javascript:' || url.protocol === 'data:') {
    add('dangerous_scheme', 40, `${url.protocol} URL`);
    const score = 40;
    return {
      url: input,
      normalized_url: url.href,
      host: '',
      registrable_domain: null,
      categories: [],
      ai_category: null,
      vendor: null,
      risk_score: score,
      severity: severityForScore(score),
      factors,
      scoring_version: SCORING_VERSION,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlParseError(`url scheme ${url.protocol} is not supported (http, https, javascript, data)`);
  }

  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  const bareHost = host.replace(/^\[|\]$/g, '');
  const parsed = parseDomain(bareHost);
  const isIp = parsed.isIp === true || IPV4_INTEGER.test(bareHost);
  const registrable = isIp ? null : parsed.domain;
  const registrableLabel = isIp ? null : parsed.domainWithoutSuffix;
  const subdomainLabels = !isIp && parsed.subdomain ? parsed.subdomain.split('.').filter(Boolean) : [];
  const aiEntry = isIp ? null : catalog.lookupAiDomain(bareHost);

  if (isIp) add('ip_literal_host', 30, `host ${bareHost} is an IP address`);
  if (url.username || url.password) add('userinfo_at', 20, 'credentials or @ in the authority part');
  if (url.port && url.port !== '80' && url.port !== '443') add('nonstandard_port', 5, `port ${url.port}`);
  if (url.protocol === 'http:') add('no_tls', 5, 'http scheme');

  let brandHit = false;
  if (!isIp && !aiEntry) {
    const unicodeHost = domainToUnicode(bareHost) || bareHost;
    const unicodeLabels = unicodeHost.split('.');
    let homoglyph = false;
    for (const label of unicodeLabels) {
      if (/^[\x00-\x7f]*$/.test(label)) continue;
      const scripts = scriptsOf(label);
      if (scripts.size > 1) add('mixed_script', 15, `label "${label}" mixes ${[...scripts].join(' and ')}`);
      const folded = foldConfusables(label);
      if (!homoglyph && riskLists.brands.has(folded)) {
        add('brand_homoglyph', 50, `"${label}" reads as the brand "${folded}" after confusable folding`);
        homoglyph = true;
        brandHit = true;
      }
    }
    if (!homoglyph && bareHost.split('.').some((label) => label.startsWith('xn--'))) {
      add('punycode', 10, `punycode host ${bareHost} (${unicodeHost})`);
    }

    if (registrableLabel && registrable && !brandHit) {
      const ownsBrand = (brand: string) => riskLists.brands.get(brand)?.has(registrable) ?? false;
      const tokens = registrableLabel.split(/[-_]/).filter(Boolean);
      const combo = tokens.length > 1 ? tokens.find((t) => riskLists.brands.has(t) && !ownsBrand(t)) : undefined;
      if (combo) {
        add('brand_impersonation', 40, `${registrable} combines the AI brand "${combo}" with other words`);
        brandHit = true;
      } else if (!riskLists.brands.has(registrableLabel)) {
        for (const brand of riskLists.brands.keys()) {
          const limit = registrableLabel.length <= 5 ? 1 : 2;
          if (Math.abs(brand.length - registrableLabel.length) > limit) continue;
          const d = distance(registrableLabel, brand);
          if (d >= 1 && d <= limit) {
            add('typosquat', 40, `${registrable} ~ ${brand} (edit distance ${d})`);
            brandHit = true;
            break;
          }
        }
      } else if (!ownsBrand(registrableLabel)) {
        add(
          'brand_impersonation',
          40,
          `${registrable} uses the AI brand "${registrableLabel}" on a domain it does not own`,
        );
        brandHit = true;
      }
      if (!brandHit) {
        const pathTokens = url.pathname.toLowerCase().split(/[^a-z0-9]+/);
        const inSub = subdomainLabels.flatMap((l) => l.split('-')).find((t) => riskLists.brands.has(t));
        const inPath = pathTokens.find((t) => t.length >= 4 && riskLists.brands.has(t));
        const brand = inSub ?? inPath;
        if (brand && !(riskLists.brands.get(brand)?.has(registrable) ?? false)) {
          add(
            'brand_in_subdomain_or_path',
            25,
            `the AI brand "${brand}" appears in the ${inSub ? 'subdomain' : 'path'} of ${registrable}`,
          );
        }
      }
    }

    const tld = parsed.publicSuffix ?? bareHost.split('.').pop() ?? '';
    if (riskLists.suspiciousTlds.has(tld))
      add('suspicious_tld', 10, `.${tld} is among the TLDs most used for phishing`);
    if (parsed.isIcann === false && !parsed.isPrivate) add('unlisted_tld', 5, `.${tld} is not a public suffix`);
    if (subdomainLabels.length >= 4)
      add('many_subdomains', 10, `${subdomainLabels.length} labels before ${registrable}`);
    else if (subdomainLabels.length === 3) add('many_subdomains', 5, `3 labels before ${registrable}`);

    const longest = bareHost
      .split('.')
      .filter((label) => /^[a-z0-9]+$/.test(label))
      .reduce((a, b) => (b.length > a.length ? b : a), '');
    if (longest.length >= 12 && shannonEntropy(longest) >= 3.5) {
      add('high_entropy_label', 10, `label "${longest}" looks random (entropy ${shannonEntropy(longest).toFixed(2)})`);
    }
    if (registrableLabel && !registrableLabel.startsWith('xn--')) {
      const hyphens = (registrableLabel.match(/-/g) ?? []).length;
      const digits = (registrableLabel.match(/\d/g) ?? []).length;
      if (hyphens >= 3 || digits / registrableLabel.length > 0.3) {
        add('hyphens_digits', 5, `"${registrableLabel}" has ${hyphens} hyphens and ${digits} digits`);
      }
    }
    if (riskLists.shorteners.has(bareHost)) add('shortener', 10, `${bareHost} is a URL shortener`);
  }

  if (url.href.length > 120) add('long_url', 10, `${url.href.length} characters`);
  else if (url.href.length > 75) add('long_url', 5, `${url.href.length} characters`);
  if (url.pathname.includes('//') || /https?(:|%3a)/i.test(url.search)) {
    add('double_slash_redirect', 5, 'a URL embedded in the path or query');
  }
  if (!aiEntry) {
    const haystack = `${bareHost} ${url.pathname}`.toLowerCase();
    const hits = riskLists.credentialKeywords.filter((word) => haystack.includes(word));
    if (hits.length) add('credential_keywords', Math.min(10, 5 * hits.length), `keywords: ${hits.join(', ')}`);
  }
  if (aiEntry) add('ai_service', 0, `${aiEntry.domain} is a known ${aiEntry.category} service (${aiEntry.vendor})`);

  const score = Math.max(
    0,
    Math.min(
      100,
      factors.reduce((sum, f) => sum + f.points, 0),
    ),
  );
  // a password in the URL is a factor, never echoed back: both url fields show it as ***
  const shown = new URL(url.href);
  if (shown.password) shown.password = '***';
  return {
    url: url.password ? shown.href : input,
    normalized_url: shown.href,
    host: bareHost,
    registrable_domain: registrable,
    categories: aiEntry ? [aiEntry.category, AI_PARENT_CATEGORY] : [],
    ai_category: aiEntry?.category ?? null,
    vendor: aiEntry?.vendor ?? null,
    risk_score: score,
    severity: severityForScore(score),
    factors,
    scoring_version: SCORING_VERSION,
  };
}
