// Simulator of the FortiOS REST API v2 (docs/firewalls.md "FortiOS" and "Simulators"): HTTPS with a self-signed
// certificate on 127.0.0.1, token as `Authorization: Bearer` or `?access_token=`, `monitor/system/status`,
// cmdb CRUD for webfilter/urlfilter (mkey id), webfilter/profile (mkey name) and the log.syslogd/setting
// singleton, `?vdom=` and `action=move`, and FortiOS's JSON envelope with http_status and CLI error numbers
// (-5 duplicate, -3 not found, -23 in use, -651 invalid value). It also evaluates a host against a profile the
// way FortiOS does: static URL filter in entry order, then FortiGuard categories.
import https from 'node:https';
import { listenOnLoopback, simulatorTls, readBody, type SimulatorHandle } from '../../simulators/tls';

export interface FortinetSimulatorOptions {
  port?: number;
  apiKey: string;
  /** FortiGuard stand-in: host (and its subdomains) → category id; unknown hosts are 0 (unrated) */
  categoryDb?: Record<string, number>;
}

type Json = Record<string, unknown>;

export interface FortiUrlFilterTable extends Json {
  id: number;
  name: string;
  entries: Array<{ id: number; url: string; type: string; action: string; status: string }>;
}

export interface FortiWebProfile extends Json {
  name: string;
  web?: { 'urlfilter-table'?: number };
  'ftgd-wf'?: { filters?: Array<{ id: number; category: number; action: string }> };
}

export interface FortinetSimulatorState {
  urlfilters: FortiUrlFilterTable[];
  profiles: FortiWebProfile[];
  syslogd: Json;
  requests: Array<{ method: string; path: string }>;
  categoryDb: Map<string, number>;
  evaluate(profileName: string, host: string): 'allow' | 'alert' | 'block';
}

const VERSION = 'v7.4.3';
const BUILD = 2573;
const SERIAL = 'FGVM02TM00SIM001';

function envelope(method: string, pathName: string, name: string, extra: Json): Json {
  return {
    http_method: method,
    revision: '1',
    vdom: 'root',
    path: pathName,
    name,
    serial: SERIAL,
    version: VERSION,
    build: BUILD,
    ...extra,
  };
}

export async function startFortinetSimulator(
  options: FortinetSimulatorOptions,
): Promise<SimulatorHandle<FortinetSimulatorState>> {
  const categoryDb = new Map(Object.entries(options.categoryDb ?? {}).map(([h, id]) => [h.toLowerCase(), id]));
  const state: FortinetSimulatorState = {
    urlfilters: [],
    profiles: [],
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
    categoryDb,
    evaluate(profileName, host) {
      const profile = state.profiles.find((p) => p.name === profileName);
      if (!profile) throw new Error(`no webfilter profile ${profileName}`);
      const h = host.toLowerCase();
      const table = state.urlfilters.find((t) => t.id === profile.web?.['urlfilter-table']);
      let monitored = false;
      for (const entry of table?.entries ?? []) {
        if (entry.status !== 'enable') continue;
        const matches =
          entry.type === 'wildcard'
            ? wildcardMatches(entry.url, h)
            : h === entry.url || (table?.['include-subdomains'] !== 'disable' && h.endsWith(`.${entry.url}`));
        if (!matches) continue;
        if (entry.action === 'block') return 'block';
        if (entry.action === 'exempt') return 'allow';
        if (entry.action === 'monitor') monitored = true;
        break; // allow / monitor: the first matching entry decides the static step, then the category check runs
      }
      let category = 0;
      const labels = h.split('.');
      for (let i = 0; i < labels.length; i++) {
        const found = categoryDb.get(labels.slice(i).join('.'));
        if (found !== undefined) {
          category = found;
          break;
        }
      }
      const filter = profile['ftgd-wf']?.filters?.find((f) => f.category === category);
      if (filter?.action === 'block') return 'block';
      if (filter?.action === 'monitor' || filter?.action === 'warning') return 'alert';
      return monitored ? 'alert' : 'allow';
    },
  };

  const server = https.createServer(simulatorTls(), (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const method = req.method ?? 'GET';
      const send = (status: number, body: Json) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body, null, 2));
      };
      const fail = (pathName: string, name: string, status: number, error?: number, cliError?: string) =>
        send(
          status,
          envelope(method, pathName, name, {
            status: 'error',
            http_status: status,
            ...(error !== undefined ? { error } : {}),
            ...(cliError ? { cli_error: cliError } : {}),
          }),
        );
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
      if (vdom && vdom !== 'root') return fail('', '', 404, -3, `vdom ${vdom} not found`);

      let body: Json = {};
      if (method === 'POST' || method === 'PUT') {
        const raw = await readBody(req);
        try {
          body = raw ? (JSON.parse(raw) as Json) : {};
        } catch {
          return fail('', '', 400, -1, 'invalid JSON');
        }
      }

      let end = url.pathname.length;
      while (end > 0 && url.pathname[end - 1] === '/') end--; // trailing slashes (`/\/+$/` was quadratic on a run)
      const p = url.pathname.slice(0, end);
      if (p === '/api/v2/monitor/system/status' && method === 'GET') {
        return send(
          200,
          envelope(method, 'system', 'status', {
            action: '',
            status: 'success',
            http_status: 200,
            results: {
              model_name: 'FortiGate',
              model_number: 'VM64',
              model: 'FGVMK6',
              hostname: 'FGT-SIM',
              log_disk_status: 'available',
            },
          }),
        );
      }
      if (p === '/api/v2/cmdb/log.syslogd/setting') {
        if (method === 'GET')
          return send(
            200,
            envelope(method, 'log.syslogd', 'setting', { status: 'success', http_status: 200, results: state.syslogd }),
          );
        if (method === 'PUT') {
          const allowedModes = ['udp', 'legacy-reliable', 'reliable'];
          if (body.mode !== undefined && !allowedModes.includes(String(body.mode)))
            return fail('log.syslogd', 'setting', 500, -651, 'invalid mode');
          const port = body.port === undefined ? 514 : Number(body.port);
          if (!Number.isInteger(port) || port < 1 || port > 65535)
            return fail('log.syslogd', 'setting', 500, -651, 'invalid port');
          state.syslogd = { ...state.syslogd, ...body };
          return send(
            200,
            envelope(method, 'log.syslogd', 'setting', { status: 'success', http_status: 200, mkey: 'setting' }),
          );
        }
        return fail('log.syslogd', 'setting', 405);
      }

      const match = /^\/api\/v2\/cmdb\/webfilter\/(urlfilter|profile)(?:\/([^/]+))?$/.exec(p);
      if (!match) return fail('', '', 404, -3);
      const [, resource, rawKey] = match;
      const key = rawKey === undefined ? undefined : decodeURIComponent(rawKey);
      const collection = (resource === 'urlfilter' ? state.urlfilters : state.profiles) as Json[];
      const mkeyField = resource === 'urlfilter' ? 'id' : 'name';
      const find = (k: string) => collection.find((item) => String(item[mkeyField]) === k);
      const meta = (extra: Json) => envelope(method, 'webfilter', resource!, extra);

      if (method === 'GET') {
        if (key === undefined)
          return send(
            200,
            meta({
              status: 'success',
              http_status: 200,
              results: collection,
              size: collection.length,
              matched_count: collection.length,
            }),
          );
        const item = find(key);
        if (!item) return fail('webfilter', resource!, 404, -3);
        return send(200, meta({ status: 'success', http_status: 200, mkey: item[mkeyField], results: [item] }));
      }
      if (method === 'POST') {
        if (resource === 'urlfilter') {
          const id = body.id === undefined ? Math.max(0, ...state.urlfilters.map((t) => t.id)) + 1 : Number(body.id);
          if (find(String(id))) return fail('webfilter', resource, 424, -5, 'duplicate entry');
          if (typeof body.name !== 'string' || !body.name)
            return fail('webfilter', resource, 424, -651, 'name is required');
          state.urlfilters.push({ entries: [], ...body, id } as unknown as FortiUrlFilterTable);
          return send(200, meta({ status: 'success', http_status: 200, mkey: id }));
        }
        if (typeof body.name !== 'string' || !body.name)
          return fail('webfilter', resource!, 424, -651, 'name is required');
        if (find(body.name)) return fail('webfilter', resource!, 424, -5, 'duplicate entry');
        const tableRef = (body.web as FortiWebProfile['web'])?.['urlfilter-table'];
        if (tableRef !== undefined && tableRef !== 0 && !state.urlfilters.some((t) => t.id === tableRef)) {
          return fail('webfilter', resource!, 424, -651, 'urlfilter-table does not exist');
        }
        state.profiles.push(body as FortiWebProfile);
        return send(200, meta({ status: 'success', http_status: 200, mkey: body.name }));
      }
      if (method === 'PUT') {
        if (key === undefined) return fail('webfilter', resource!, 405);
        const item = find(key);
        if (!item) return fail('webfilter', resource!, 404, -3);
        const action = url.searchParams.get('action');
        if (action === 'move') {
          const before = url.searchParams.get('before');
          const after = url.searchParams.get('after');
          const target = find(before ?? after ?? '');
          if (!target) return fail('webfilter', resource!, 404, -3);
          collection.splice(collection.indexOf(item), 1);
          collection.splice(collection.indexOf(target) + (after ? 1 : 0), 0, item);
          return send(200, meta({ status: 'success', http_status: 200, mkey: item[mkeyField] }));
        }
        if (resource === 'profile') {
          const tableRef = (body.web as FortiWebProfile['web'])?.['urlfilter-table'];
          if (tableRef !== undefined && tableRef !== 0 && !state.urlfilters.some((t) => t.id === tableRef)) {
            return fail('webfilter', resource, 424, -651, 'urlfilter-table does not exist');
          }
        }
        // FortiOS PUT replaces the fields given; table children (entries, filters) are replaced as a whole
        Object.assign(item, body, { [mkeyField]: item[mkeyField] });
        return send(200, meta({ status: 'success', http_status: 200, mkey: item[mkeyField] }));
      }
      if (method === 'DELETE') {
        if (key === undefined) return fail('webfilter', resource!, 405);
        const item = find(key);
        if (!item) return fail('webfilter', resource!, 404, -3);
        if (
          resource === 'urlfilter' &&
          state.profiles.some((profile) => profile.web?.['urlfilter-table'] === item.id)
        ) {
          return fail('webfilter', resource, 424, -23, 'entry is used by a webfilter profile');
        }
        collection.splice(collection.indexOf(item), 1);
        return send(200, meta({ status: 'success', http_status: 200, mkey: item[mkeyField] }));
      }
      return fail('webfilter', resource!, 405);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'error', http_status: 500 }));
    });
  });

  return listenOnLoopback(server, options.port, state);
}

/**
 * FortiOS wildcard URL filter: `*` stands for any run of characters within a line, everything else is literal. Was a
 * RegExp built from the entry (`.*` per `*`), which backtracks polynomially; this two-pointer match is O(host × entry).
 */
export function wildcardMatches(pattern: string, text: string): boolean {
  const lineBreak = (ch: string | undefined): boolean =>
    ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029';
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0 && !lineBreak(text[mark])) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
