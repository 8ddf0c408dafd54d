import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Config } from './config';
import { ApiError } from './errors';

/**
 * Outbound HTTP guard (docs/public-api.md "Outbound HTTP guard"). Webhook URLs may not reach private, loopback, link-local or
 * metadata addresses; firewall hosts may be private (management networks are) but never loopback,
 * link-local or metadata. Each purpose has its own allow-list of hosts or CIDRs that lifts the guard for named
 * targets (OUTBOUND_ALLOWED_HOSTS_FIREWALL, OUTBOUND_ALLOWED_HOSTS_WEBHOOK; see allowedHostsFor), so an exemption
 * made for a firewall simulator never opens every tenant's webhooks to the same address (docs/security.md
 * "Outbound allow-lists per purpose"). Callers connect to the address returned here, so DNS rebinding can't swap it
 * afterwards.
 */
export type OutboundPurpose = 'webhook' | 'firewall';

/** The setting that lists a purpose's exemptions (named in refusals so an operator knows which one to change). */
export const ALLOW_LIST_SETTING: Record<OutboundPurpose, string> = {
  firewall: 'OUTBOUND_ALLOWED_HOSTS_FIREWALL',
  webhook: 'OUTBOUND_ALLOWED_HOSTS_WEBHOOK',
};

/**
 * The allow-list (comma list of hosts or CIDRs) of one purpose. The deprecated OUTBOUND_ALLOWED_HOSTS was one list
 * for both purposes; it now counts for firewalls only (the README's demo setting was for firewall simulators), so
 * a deployment that still sets it keeps its firewalls working and its webhooks closed (a warning at boot:
 * configWarnings).
 */
export function allowedHostsFor(
  config: Pick<Config, 'OUTBOUND_ALLOWED_HOSTS' | 'OUTBOUND_ALLOWED_HOSTS_FIREWALL' | 'OUTBOUND_ALLOWED_HOSTS_WEBHOOK'>,
  purpose: OutboundPurpose,
): string {
  if (purpose === 'webhook') return config.OUTBOUND_ALLOWED_HOSTS_WEBHOOK;
  return [config.OUTBOUND_ALLOWED_HOSTS_FIREWALL, config.OUTBOUND_ALLOWED_HOSTS].filter((v) => v.trim()).join(',');
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
const TRANSITION_RANGES = new Set(['rfc6052', 'rfc6145', '6to4', 'teredo']);
const METADATA_IPS = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);

export interface AllowList {
  hosts: Set<string>;
  cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export function parseAllowList(value: string): AllowList {
  const hosts = new Set<string>();
  const cidrs: AllowList['cidrs'] = [];
  for (const raw of value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (raw.includes('/')) {
      try {
        cidrs.push(ipaddr.parseCIDR(raw));
        continue;
      } catch {
        /* not a CIDR: treat as a host name */
      }
    }
    hosts.add(raw.replace(/^\[|\]$/g, ''));
  }
  return { hosts, cidrs };
}

function allowedByList(list: AllowList, host: string, ip?: string): boolean {
  if (list.hosts.has(host.toLowerCase())) return true;
  if (!ip) return false;
  if (list.hosts.has(ip)) return true;
  const addr = ipaddr.process(ip);
  return list.cidrs.some(([range, bits]) => addr.kind() === range.kind() && addr.match([range, bits] as never));
}

/** Why an address is refused for the purpose, or null when it is fine. */
export function addressProblem(ip: string, purpose: OutboundPurpose): string | null {
  if (!ipaddr.isValid(ip)) return 'is not a valid IP address';
  const addr = ipaddr.process(ip);
  if (METADATA_IPS.has(addr.toString())) return 'is a cloud metadata address';
  const range = addr.range();
  if (range === 'loopback') return 'is a loopback address';
  if (range === 'linkLocal') return 'is a link-local address';
  // NAT64, 6to4 and Teredo addresses carry an IPv4 address the translator or relay connects to
  // (64:ff9b::a9fe:a9fe is 169.254.169.254 behind NAT64), so the checks above cannot see the target
  if (TRANSITION_RANGES.has(range)) return `is an IPv6 transition address (${range}) that can reach any IPv4 address`;
  if (range === 'unspecified' || range === 'broadcast' || range === 'multicast' || range === 'reserved')
    return `is a ${range} address`;
  // ::/8 is reserved by the IETF (IANA's IPv6 address space registry) apart from the ranges classified above
  // (::, ::1, mapped and translated IPv4, NAT64). ipaddr.js calls the rest unicast, yet it holds the deprecated
  // IPv4-compatible ::/96 (::7f00:1 is ::127.0.0.1), which some stacks and translators still map to IPv4
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).parts[0]! < 0x100)
    return 'is in the IETF-reserved ::/8 block (IPv4-compatible ::/96 and others)';
  if (purpose === 'webhook' && (range === 'private' || range === 'uniqueLocal' || range === 'carrierGradeNat'))
    return 'is a private address';
  // a receiver on the internet is plain unicast; anything else (discard, AMT, AS112, …) is not one
  if (purpose === 'webhook' && range !== 'unicast') return `is a ${range} address`;
  return null;
}

/**
 * Why `ip` (what `host` resolved to) may not be contacted for the purpose, or null when it may:
 * the synchronous check for callers that resolve and connect themselves (the firewall connectors).
 */
export function addressRefusal(
  list: AllowList,
  target: { host: string; ip: string },
  purpose: OutboundPurpose,
): string | null {
  const { host, ip } = target;
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (ipaddr.isValid(ip) && allowedByList(list, bare, ip)) return null;
  const problem = addressProblem(ip, purpose);
  return problem ? `${ip} ${problem}` : null;
}

/** Static check of a host as typed (an IP literal, or a name that is obviously local), before any DNS. */
export function hostRefusal(list: AllowList, host: string, purpose: OutboundPurpose): string | null {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (list.hosts.has(bare)) return null;
  if (ipaddr.isValid(bare)) return addressRefusal(list, { host: bare, ip: bare }, purpose);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return `${bare} is a loopback name`;
  if (METADATA_HOSTS.has(bare)) return `${bare} is a cloud metadata host`;
  return null;
}

export class OutboundGuard {
  private readonly allow: AllowList;

  constructor(allowedHosts: string) {
    this.allow = parseAllowList(allowedHosts);
  }

  /**
   * Resolves `host` and returns the address to connect to; throws ApiError url_not_allowed. `exempted`: the
   * address passed only because the allow-list names it (the guard would refuse it otherwise).
   */
  async resolve(
    host: string,
    purpose: OutboundPurpose,
    param = 'url',
  ): Promise<{ address: string; family: 4 | 6; exempted: boolean }> {
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    if (METADATA_HOSTS.has(bare) && !this.allow.hosts.has(bare)) {
      throw new ApiError('url_not_allowed', {
        param,
        message: `${host} is a cloud metadata host and cannot be reached.`,
      });
    }
    let addresses: Array<{ address: string; family: number }>;
    if (ipaddr.isValid(bare)) addresses = [{ address: bare, family: bare.includes(':') ? 6 : 4 }];
    else {
      try {
        addresses = await lookup(bare, { all: true, verbatim: true });
      } catch {
        throw new ApiError('url_not_allowed', { param, message: `${host} does not resolve.` });
      }
    }
    // every resolved address must pass, or a rebinding name could alternate between them
    for (const { address } of addresses) {
      if (allowedByList(this.allow, bare, address)) continue;
      const problem = addressProblem(address, purpose);
      if (problem) {
        throw new ApiError('url_not_allowed', {
          param,
          message: `${host} resolves to ${address}, which ${problem}; add it to ${ALLOW_LIST_SETTING[purpose]} to allow it.`,
        });
      }
    }
    const first = addresses[0]!;
    return {
      address: first.address,
      family: first.family === 6 ? 6 : 4,
      exempted: addressProblem(first.address, purpose) !== null,
    };
  }
}

export interface GuardedRequest {
  /** what the call is for: decides which addresses are refused (webhook, firewall) */
  purpose: OutboundPurpose;
  /** absolute http(s) URL; redirects are never followed */
  url: string;
  method?: 'POST' | 'GET' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** whole-exchange deadline: connect, send, and read the response */
  timeoutMs: number;
  /** response bytes kept; the rest is read and dropped */
  maxBodyBytes?: number;
}

export interface GuardedResponse {
  status: number;
  body: string;
  /** true when the response body was longer than maxBodyBytes */
  truncated: boolean;
  /**
   * the address connected to passed only through the purpose's allow-list (loopback, a private network): its
   * reply comes from inside the platform's network, so callers never show it to a tenant
   */
  exempted: boolean;
}

/** A failed outbound exchange: refused by the guard, DNS, connect, timeout or a broken response. */
export class OutboundRequestError extends Error {
  constructor(
    readonly reason: 'refused' | 'invalid_url' | 'timeout' | 'network',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

/**
 * One HTTP(S) request through the guard: the host is resolved and checked here and the socket goes
 * to that checked address (Host header and TLS servername keep the name), so a DNS answer that
 * changes between check and connect cannot redirect the call. Redirects are never followed: a 3xx
 * comes back as the response. Callers decide what counts as success.
 */
export async function guardedRequest(guard: OutboundGuard, req: GuardedRequest): Promise<GuardedResponse> {
  const { purpose, url: rawUrl } = req;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundRequestError('invalid_url', `not a valid URL: ${rawUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRequestError('invalid_url', `unsupported scheme ${url.protocol}`);
  }
  const bareHost = url.hostname.replace(/^\[|\]$/g, '');
  let address: string;
  let exempted: boolean;
  try {
    ({ address, exempted } = await guard.resolve(bareHost, purpose));
  } catch (err) {
    throw new OutboundRequestError('refused', (err as Error).message);
  }
  const isHttps = url.protocol === 'https:';
  const mod = isHttps ? await import('node:https') : await import('node:http');
  const maxBody = req.maxBodyBytes ?? 64 * 1024;
  const headers: Record<string, string> = { Host: url.host, ...(req.headers ?? {}) };
  if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));

  return new Promise<GuardedResponse>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const request = mod.request({
      host: address,
      port: url.port ? Number(url.port) : isHttps ? 443 : 80,
      method: req.method ?? 'POST',
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      ...(isHttps && !ipaddr.isValid(bareHost) ? { servername: bareHost } : {}),
    });
    const timer = setTimeout(() => {
      finish(() => reject(new OutboundRequestError('timeout', `no complete response within ${req.timeoutMs} ms`)));
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      finish(() => reject(new OutboundRequestError('network', `${err.code ?? 'error'}: ${err.message}`)));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      response.on('data', (chunk: Buffer) => {
        if (kept < maxBody) {
          const part = chunk.subarray(0, maxBody - kept);
          chunks.push(part);
          kept += part.length;
          if (part.length < chunk.length) truncated = true;
        } else truncated = true;
      });
      response.on('end', () => {
        finish(() =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            truncated,
            exempted,
          }),
        );
      });
      response.on('error', (err: NodeJS.ErrnoException) => {
        finish(() => reject(new OutboundRequestError('network', `${err.code ?? 'error'}: ${err.message}`)));
      });
    });
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}
