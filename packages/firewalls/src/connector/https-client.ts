// The only way connectors reach a firewall: node:https, certificate checking as the firewall record says,
// a hard timeout, no redirects, and a connection to an address that passed the outbound guard. The host is
// resolved here and the socket goes to the checked IP (servername keeps SNI and certificate names right), so
// a DNS answer that changes between check and connect cannot redirect the call.
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { ConnectorError, classifyNetworkError } from './errors';
import { addressRefusal, parseAllowList, type AllowList } from '@risk/common';

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
}

export interface HttpsCallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ConnectorContext {
  timeoutMs: number;
  allowList: AllowList;
}

/** 10 s per exchange; `allowedHosts` is the OUTBOUND_ALLOWED_HOSTS setting from the caller's config. */
export function defaultConnectorContext(allowedHosts: string): ConnectorContext {
  return { timeoutMs: 10_000, allowList: parseAllowList(allowedHosts) };
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

async function resolveGuarded(host: string, allowList: AllowList): Promise<string> {
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
  const refusal = addressRefusal(allowList, { host: bare, ip: address }, 'firewall');
  if (refusal) throw new ConnectorError('outbound_blocked', `refused to connect to ${bare}: ${refusal}`);
  return address;
}

export async function httpsCall(
  endpoint: FirewallEndpoint,
  options: HttpsCallOptions,
  context: ConnectorContext,
): Promise<HttpsCallResult> {
  const target = `${endpoint.host}:${endpoint.port}`;
  const address = await resolveGuarded(endpoint.host, context.allowList);
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
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          clearTimeout(timer);
          fail(new ConnectorError('unexpected_response', `${target} sent more than ${MAX_BODY_BYTES} bytes`));
          request.destroy();
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
