// The only way connectors reach a firewall: node:https, certificate checking as the firewall record says,
// a hard timeout, no redirects, and a connection to an address that passed the outbound guard. The host is
// resolved here and the socket goes to the checked IP (servername keeps SNI and certificate names right), so
// a DNS answer that changes between check and connect cannot redirect the call. Each call says how large a reply
// it accepts (docs/firewalls.md "Replies"): the connectors parse replies off the main thread (reply-parser.ts), and
// a cap at what the vendor sends for that call keeps even that work small.
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { ConnectorError, classifyNetworkError } from './errors';
import { addressRefusal, parseAllowList, type AllowList } from '@risk/common/outbound';
import { parseFirewallNetworks, type FirewallNetworks } from './firewall-networks';

export interface FirewallEndpoint {
  host: string;
  port: number;
  verifySsl: boolean;
}

export interface HttpsCallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * the most reply bytes this call accepts: what the vendor sends for it, with room to spare (REPLY_CAP_BYTES
   * unless the call needs more); a longer reply fails the call with `unexpected_response`
   */
  maxReplyBytes: number;
}

/**
 * What a firewall answers to the calls we make is small: a status (`show system info`, `monitor/system/status`:
 * 1–5 KiB), an acknowledgement of a config change or a commit (well under 1 KiB), an existence check of one object
 * we created (fetched without its contents). 64 KiB is ten times the largest of these; a call that needs more sets
 * its own cap.
 */
export const REPLY_CAP_BYTES = 64 * 1024;

export interface HttpsCallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ConnectorContext {
  timeoutMs: number;
  allowList: AllowList;
  /** FIREWALL_ALLOWED_CIDRS: the only networks a firewall may be in (absent or null: any the guard allows) */
  networks?: FirewallNetworks | null;
}

/**
 * 10 s per exchange; `allowedHosts` is the firewall allow-list of the caller's config (allowedHostsFor),
 * `allowedCidrs` its FIREWALL_ALLOWED_CIDRS.
 */
export function defaultConnectorContext(allowedHosts: string, allowedCidrs = ''): ConnectorContext {
  return {
    timeoutMs: 10_000,
    allowList: parseAllowList(allowedHosts),
    networks: parseFirewallNetworks(allowedCidrs),
  };
}

async function resolveGuarded(
  host: string,
  context: Pick<ConnectorContext, 'allowList' | 'networks'>,
): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let address: string;
  if (net.isIP(bare)) {
    address = bare;
  } else {
    try {
      const found = await lookup(bare, { verbatim: true });
      address = found.address;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
      throw new ConnectorError('dns', `could not resolve ${bare} (${code})`);
    }
  }
  const refusal = addressRefusal(context.allowList, { host: bare, ip: address }, 'firewall');
  if (refusal) throw new ConnectorError('outbound_blocked', `refused to connect to ${bare}: ${refusal}`);
  // checked before any packet is sent, and the message does not name the address a name resolved to: a tenant
  // learns nothing about hosts outside the list (docs/security.md "Firewall targets")
  if (context.networks && !context.networks.contains(address)) {
    throw new ConnectorError(
      'outbound_blocked',
      `refused to connect to ${bare}: it is outside the networks this platform allows firewalls in (FIREWALL_ALLOWED_CIDRS)`,
    );
  }
  return address;
}

export async function httpsCall(
  endpoint: FirewallEndpoint,
  options: HttpsCallOptions,
  context: ConnectorContext,
): Promise<HttpsCallResult> {
  const target = `${endpoint.host}:${endpoint.port}`;
  const address = await resolveGuarded(endpoint.host, context);
  const cap = options.maxReplyBytes;
  const tooLarge = () =>
    new ConnectorError(
      'unexpected_response',
      `${target} sent a reply larger than ${cap} bytes to ${options.method} ${options.path.split('?')[0]}, ` +
        `more than the firewall sends for this call; it was refused`,
    );
  const bareHost = endpoint.host.replace(/^\[|\]$/g, '');
  return new Promise<HttpsCallResult>((resolve, reject) => {
    const headers: Record<string, string> = {
      Host: net.isIPv6(bareHost) ? `[${bareHost}]` : bareHost,
      ...options.headers,
    };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const request = https.request({
      host: address,
      port: endpoint.port,
      method: options.method,
      path: options.path,
      headers,
      servername: net.isIP(bareHost) ? undefined : bareHost,
      rejectUnauthorized: endpoint.verifySsl,
      agent: false,
    });
    let settled = false;
    const fail = (error: ConnectorError) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(new ConnectorError('timeout', `${target} did not answer within ${context.timeoutMs} ms`));
      request.destroy();
    }, context.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(classifyNetworkError(err, target));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const refuse = () => {
        clearTimeout(timer);
        fail(tooLarge());
        request.destroy();
      };
      // a declared length over the cap is refused before any of the body is read
      if (Number(response.headers['content-length']) > cap) {
        refuse();
        return;
      }
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > cap) {
          refuse();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        if (settled) return;
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          fail(
            new ConnectorError(
              'unexpected_response',
              `${target} answered with a redirect (${status}); redirects are not followed`,
            ),
          );
          return;
        }
        settled = true;
        resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(classifyNetworkError(err, target));
      });
    });
    if (options.body !== undefined) request.write(options.body);
    request.end();
  });
}
