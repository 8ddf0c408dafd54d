// One block-list value → what the feed writes (docs/feeds.md "Block list"): a domain (it covers its subdomains,
// so no `*.`), or a URL reduced to host + path (a scheme is dropped: PAN-OS URL lists hold none). The host must
// be a registrable name under a public suffix (tldts, the Public Suffix List) and the whole entry a clean line.
import { ApiError } from '@risk/common/errors';
import { isFeedHost, isFeedUrl, normalizeDomainPattern } from '@risk/firewalls';
import { parse as parseDomain } from 'tldts';

export interface BlockEntryValue {
  kind: 'domain' | 'url';
  value: string;
}

function invalid(param: string, message: string): ApiError {
  return new ApiError('parameter_invalid', { param, message });
}

function checkHost(host: string, param: string): string {
  if (host.includes('*'))
    throw invalid(param, 'No wildcards: a domain in the block list already covers its subdomains.');
  const normalized = normalizeDomainPattern(host);
  const parsed = normalized ? parseDomain(normalized) : null;
  if (!normalized || !isFeedHost(normalized) || parsed?.isIp || !parsed?.domain || !parsed.publicSuffix)
    throw invalid(param, `'${host}' is not a host name under a public suffix.`);
  return normalized;
}

export function normalizeBlockEntry(input: string, param: string): BlockEntryValue {
  let value = input.trim();
  const lower = value.toLowerCase();
  if (lower.startsWith('https://')) value = value.slice(8);
  else if (lower.startsWith('http://')) value = value.slice(7);
  else if (lower.includes('://')) throw invalid(param, 'Only http and https URLs can be listed.');
  const slash = value.indexOf('/');
  if (slash < 0) return { kind: 'domain', value: checkHost(value, param) };
  const host = checkHost(value.slice(0, slash), param);
  const url = `${host}${value.slice(slash)}`;
  if (!isFeedUrl(url)) {
    throw invalid(
      param,
      'A URL entry is host/path of at most 255 printable characters, without spaces, quotes or backslashes.',
    );
  }
  return { kind: 'url', value: url };
}
