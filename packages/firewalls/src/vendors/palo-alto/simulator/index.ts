// Simulator of the PAN-OS XML API (docs/firewalls.md "PAN-OS" and "Simulators"): `/api/` over HTTPS with a
// self-signed certificate on 127.0.0.1, GET or form POST, key in `X-PAN-KEY` or `key=`, keygen, op
// `show system info` / `show jobs id` / `request system external-list refresh`, `type=version`, config
// set/edit/get/show/delete on an in-memory candidate tree (config-api.ts), commit → job (ACT, then FIN/OK or
// FIN/FAIL; op-api.ts), External Dynamic Lists pulled from their source URL (edl.ts, docs/feeds.md), and the
// vendor's reply envelope and codes. The device's own URL evaluation lives in state.ts.
import https from 'node:https';
import { listenOnLoopback, simulatorTls, readBody, type SimulatorHandle } from '../../../simulators/tls';
import { FeedPuller } from '../../../simulators/feed-puller';
import { escapeXml } from '../../../lib/xml-tree';
import { handleConfig } from './config-api';
import { handleOp } from './op-api';
import { illegalValue, missingParameter, response } from './reply';
import {
  defaultCategoryDb,
  emptyConfig,
  evaluateOnDevice,
  vsysOf,
  type PanosJob,
  type PanosSimulatorState,
} from './state';
import { path, members } from '../../../lib/xml-tree';

export { type PanosSimulatorState } from './state';

export interface PanosSimulatorOptions {
  port?: number;
  apiKey: string;
  /** keygen credentials */
  username?: string;
  password?: string;
  /** number of `show jobs` polls before a commit job finishes */
  commitPolls?: number;
  /** PAN-DB stand-in: host (and its subdomains) → predefined category names */
  categoryDb?: Record<string, string[]>;
  /** how often the device pulls its EDLs (PAN-OS: five minutes at the shortest); 0: only on commit and on demand */
  edlIntervalMs?: number;
}

const INVALID_CREDENTIAL =
  "<response status = 'error' code = '403'><result><msg>Invalid Credential</msg></result></response>";

function newState(options: PanosSimulatorOptions): PanosSimulatorState {
  const categoryDb = defaultCategoryDb();
  for (const [host, categories] of Object.entries(options.categoryDb ?? {}))
    categoryDb.set(host.toLowerCase(), categories);
  const state: PanosSimulatorState = {
    candidate: emptyConfig(),
    running: emptyConfig(),
    jobs: [],
    requests: [],
    categoryDb,
    dirty: false,
    edls: new FeedPuller(),
    systemInfo: {
      hostname: 'PA-VM-SIM',
      'ip-address': '127.0.0.1',
      model: 'PA-VM',
      serial: '007951000SIM01',
      'sw-version': '10.2.9',
      family: 'vm',
      'multi-vsys': 'off',
      uptime: '0 days, 1:00:00',
      'app-version': '8799-8509',
      'threat-version': '8799-8509',
      'url-db': 'paloaltonetworks',
    },
    evaluate: (profileName, host) => evaluateOnDevice(state, { profileName, host }),
    customCategories() {
      const out: Record<string, string[]> = {};
      for (const entry of path(vsysOf(state.running), 'profiles', 'custom-url-category')?.children ?? [])
        out[entry.attrs.name!] = members(path(entry, 'list'));
      return out;
    },
    syslogProfiles: () => path(state.running, 'shared', 'log-settings', 'syslog')?.children ?? [],
    refreshEdls: () => state.edls.refresh(),
  };
  return state;
}

async function dispatch(
  state: PanosSimulatorState,
  input: { params: URLSearchParams; options: PanosSimulatorOptions },
) {
  const { params, options } = input;
  const type = params.get('type') ?? '';
  switch (type) {
    case 'version':
      return {
        http: 200,
        body: response(
          'success',
          undefined,
          `<result><sw-version>${state.systemInfo['sw-version']}</sw-version><multi-vsys>off</multi-vsys><model>${state.systemInfo.model}</model><serial>${state.systemInfo.serial}</serial></result>`,
        ),
      };
    case 'op': {
      const cmd = params.get('cmd');
      if (!cmd) return missingParameter('cmd');
      return handleOp(state, { cmd, commitPolls: options.commitPolls ?? 1 });
    }
    case 'config':
      return handleConfig(state, params);
    case 'commit': {
      if (!state.dirty)
        return { http: 200, body: response('success', '19', '<msg>There are no changes to commit.</msg>') };
      const job: PanosJob = { id: state.jobs.length + 1, polls: 0, status: 'ACT', result: 'PEND', details: [] };
      state.jobs.push(job);
      return {
        http: 200,
        body: response(
          'success',
          '19',
          `<result><msg><line>Commit job enqueued with jobid ${job.id}</line></msg><job>${job.id}</job></result>`,
        ),
      };
    }
    default:
      return illegalValue('type', type);
  }
}

export async function startPanosSimulator(
  options: PanosSimulatorOptions,
): Promise<SimulatorHandle<PanosSimulatorState>> {
  const username = options.username ?? 'admin';
  const password = options.password ?? 'admin';
  const state = newState(options);

  const server = https.createServer(simulatorTls(), (req, res) => {
    void (async () => {
      const reply = (http: number, body: string) => {
        res.writeHead(http, { 'Content-Type': 'application/xml; charset=UTF-8' });
        res.end(body);
      };
      const url = new URL(req.url ?? '/', 'https://localhost');
      if (url.pathname !== '/api/' && url.pathname !== '/api')
        return reply(404, response('error', '400', '<result><msg>Not Found</msg></result>'));
      const params = new URLSearchParams(url.search);
      if (req.method === 'POST') {
        const body = await readBody(req);
        for (const [k, v] of new URLSearchParams(body)) params.set(k, v);
      } else if (req.method !== 'GET') {
        return reply(405, response('error', '400', '<result><msg>Method Not Allowed</msg></result>'));
      }
      const type = params.get('type') ?? '';
      state.requests.push({
        type,
        action: params.get('action') ?? undefined,
        xpath: params.get('xpath') ?? undefined,
        cmd: params.get('cmd') ?? undefined,
      });
      if (type === 'keygen') {
        if (params.get('user') === username && params.get('password') === password)
          return reply(200, response('success', undefined, `<result><key>${escapeXml(options.apiKey)}</key></result>`));
        return reply(403, INVALID_CREDENTIAL);
      }
      const key = (req.headers['x-pan-key'] as string | undefined) ?? params.get('key');
      if (key !== options.apiKey) return reply(403, INVALID_CREDENTIAL);
      const r = await dispatch(state, { params, options });
      return reply(r.http, r.body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end(response('error', '5', '<msg><line>Internal error</line></msg>'));
    });
  });

  if (options.edlIntervalMs) state.edls.start(options.edlIntervalMs);
  const handle = await listenOnLoopback(server, options.port, state);
  return { ...handle, close: () => (state.edls.stop(), handle.close()) };
}
