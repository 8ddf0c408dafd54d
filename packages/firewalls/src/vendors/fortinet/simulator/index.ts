// Simulator of the FortiOS REST API v2 (docs/firewalls.md "FortiOS" and "Simulators"): HTTPS with a self-signed
// certificate on 127.0.0.1, token as `Authorization: Bearer` or `?access_token=`, `monitor/system/status`,
// cmdb CRUD for webfilter/urlfilter, webfilter/profile and the log.syslogd/setting singleton (cmdb.ts),
// system/external-resource feeds pulled from their URL (external-resource.ts, docs/feeds.md), `?vdom=` and
// `action=move`, and FortiOS's JSON envelope with http_status and CLI error numbers (envelope.ts). The device's
// own evaluation of a host lives in state.ts.
import https from 'node:https';
import { listenOnLoopback, simulatorTls, readBody, type SimulatorHandle } from '../../../simulators/tls';
import { FeedPuller } from '../../../simulators/feed-puller';
import { handleSyslogd, handleWebfilter, type CmdbRequest } from './cmdb';
import { BUILD, envelope, failure, SERIAL, VERSION, type Json, type Reply } from './envelope';
import { handleExternalResource } from './external-resource';
import { evaluateOnDevice, type FortinetSimulatorState } from './state';

export { type FortinetSimulatorState } from './state';

export interface FortinetSimulatorOptions {
  port?: number;
  apiKey: string;
  /** FortiGuard stand-in: host (and its subdomains) → category id; unknown hosts are 0 (unrated) */
  categoryDb?: Record<string, number>;
  /** how often the device pulls its external feeds; 0 or absent: only when a feed is created or changed, and on demand */
  feedIntervalMs?: number;
}

function newState(options: FortinetSimulatorOptions): FortinetSimulatorState {
  const state: FortinetSimulatorState = {
    urlfilters: [],
    profiles: [],
    externalResources: [],
    syslogd: {
      status: 'disable',
      server: '',
      mode: 'udp',
      port: 514,
      facility: 'local7',
      format: 'default',
      'enc-algorithm': 'disable',
    },
    requests: [],
    categoryDb: new Map(Object.entries(options.categoryDb ?? {}).map(([h, id]) => [h.toLowerCase(), id])),
    feeds: new FeedPuller(),
    evaluate: (profileName, host) => evaluateOnDevice(state, { profileName, host }),
    refreshFeeds: () => state.feeds.refresh(),
  };
  return state;
}

const SYSTEM_STATUS = {
  model_name: 'FortiGate',
  model_number: 'VM64',
  model: 'FGVMK6',
  hostname: 'FGT-SIM',
  log_disk_status: 'available',
};

async function route(state: FortinetSimulatorState, req: CmdbRequest): Promise<Reply> {
  const { method, url } = req;
  let end = url.pathname.length;
  while (end > 0 && url.pathname[end - 1] === '/') end--; // trailing slashes (`/\/+$/` was quadratic on a run)
  const p = url.pathname.slice(0, end);
  if (p === '/api/v2/monitor/system/status' && method === 'GET') {
    const at = { path: 'system', name: 'status' };
    return {
      status: 200,
      body: envelope(method, at, { action: '', status: 'success', http_status: 200, results: SYSTEM_STATUS }),
    };
  }
  if (p === '/api/v2/cmdb/log.syslogd/setting') return handleSyslogd(state, req);
  const external = /^\/api\/v2\/cmdb\/system\/external-resource(?:\/([^/]+))?$/.exec(p);
  if (external)
    return handleExternalResource(state, {
      req,
      key: external[1] === undefined ? undefined : decodeURIComponent(external[1]),
    });
  const match = /^\/api\/v2\/cmdb\/webfilter\/(urlfilter|profile)(?:\/([^/]+))?$/.exec(p);
  if (!match) return failure(method, { path: '', name: '' }, { status: 404, error: -3 });
  const key = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  return handleWebfilter(state, { req, resource: match[1] as 'urlfilter' | 'profile', key });
}

export async function startFortinetSimulator(
  options: FortinetSimulatorOptions,
): Promise<SimulatorHandle<FortinetSimulatorState>> {
  const state = newState(options);
  const server = https.createServer(simulatorTls(), (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const method = req.method ?? 'GET';
      const send = (status: number, body: Json) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body, null, 2));
      };
      state.requests.push({ method, path: url.pathname });
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : url.searchParams.get('access_token');
      if (token !== options.apiKey) {
        // FortiOS answers an invalid or missing token with 401 and the error envelope
        return send(401, {
          http_method: method,
          status: 'error',
          http_status: 401,
          serial: SERIAL,
          version: VERSION,
          build: BUILD,
        });
      }
      const vdom = url.searchParams.get('vdom');
      if (vdom && vdom !== 'root') {
        const r = failure(
          method,
          { path: '', name: '' },
          { status: 404, error: -3, cliError: `vdom ${vdom} not found` },
        );
        return send(r.status, r.body);
      }
      let body: Json = {};
      if (method === 'POST' || method === 'PUT') {
        const raw = await readBody(req);
        try {
          body = raw ? (JSON.parse(raw) as Json) : {};
        } catch {
          const r = failure(method, { path: '', name: '' }, { status: 400, error: -1, cliError: 'invalid JSON' });
          return send(r.status, r.body);
        }
      }
      const r = await route(state, { method, url, body });
      return send(r.status, r.body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', http_status: 500 }));
    });
  });
  if (options.feedIntervalMs) state.feeds.start(options.feedIntervalMs);
  const handle = await listenOnLoopback(server, options.port, state);
  return { ...handle, close: () => (state.feeds.stop(), handle.close()) };
}
