// Simulator of the PAN-OS XML API (docs/firewalls.md "PAN-OS" and "Simulators"): `/api/` over HTTPS with a
// self-signed certificate on 127.0.0.1, GET or form POST, key in `X-PAN-KEY` or `key=`, keygen, op
// `show system info` / `show jobs id`, `type=version`, config set/edit/get/show/delete on an in-memory
// candidate tree, commit → job (ACT, then FIN/OK or FIN/FAIL), and the vendor's reply envelope and codes.
// It also evaluates a URL against the running URL filtering profile the way PAN-OS does (custom categories
// first, strictest action wins) so tests can compare it with our first-match evaluator.
import https from 'node:https';
import { listenOnLoopback, simulatorTls, readBody, type SimulatorHandle } from '../../simulators/tls';
import {
  clone,
  el,
  members,
  mergeInto,
  parseXml,
  parseXpath,
  path,
  resolveXpath,
  serialize,
  escapeXml,
  type XmlNode,
} from '../../lib/xml-tree';
import { aiDomains, AI_PARENT_CATEGORY } from '../../categories';
import { panGranularAiCategory, panPredefinedCategories } from './pan-db';

export const PANOS_VSYS_XPATH = "/config/devices/entry[@name='localhost.localdomain']/vsys/entry[@name='vsys1']";

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
}

export interface PanosJob {
  id: number;
  polls: number;
  status: 'ACT' | 'FIN';
  result: 'PEND' | 'OK' | 'FAIL';
  details: string[];
}

export interface PanosSimulatorState {
  candidate: XmlNode;
  running: XmlNode;
  jobs: PanosJob[];
  requests: Array<{ type: string; action?: string; xpath?: string; cmd?: string }>;
  systemInfo: Record<string, string>;
  categoryDb: Map<string, string[]>;
  /** Only the candidate config differs from running. */
  dirty: boolean;
  /** PAN-OS evaluation of a host against a running URL filtering profile. */
  evaluate(profileName: string, host: string): 'allow' | 'alert' | 'block' | 'continue' | 'override';
  /** custom URL category entry → members, from the running config */
  customCategories(): Record<string, string[]>;
  syslogProfiles(): XmlNode[];
}

const STRICTNESS = ['allow', 'alert', 'continue', 'override', 'block'] as const;

function emptyConfig(): XmlNode {
  const vsys = el(
    'entry',
    [
      el('profiles', [el('custom-url-category'), el('url-filtering')]),
      el('log-settings', [el('profiles')]),
      el('rulebase', [el('security', [el('rules')])]),
    ],
    { name: 'vsys1' },
  );
  const device = el('entry', [el('vsys', [vsys])], { name: 'localhost.localdomain' });
  return el('config', [el('devices', [device]), el('shared', [el('log-settings', [el('syslog')])])]);
}

function defaultCategoryDb(): Map<string, string[]> {
  const db = new Map<string, string[]>();
  for (const entry of aiDomains) {
    const granular = panGranularAiCategory(entry.category);
    db.set(entry.domain, [AI_PARENT_CATEGORY, ...(granular ? [granular] : [])]);
  }
  return db;
}

function lookupCategories(db: Map<string, string[]>, host: string): string[] {
  const labels = host.toLowerCase().split('.');
  for (let i = 0; i < labels.length; i++) {
    const found = db.get(labels.slice(i).join('.'));
    if (found) return found;
  }
  return ['unknown'];
}

/** PAN-OS URL list matching: `a.com` matches that host, `*.a.com` any subdomain of a.com. */
function urlListMatches(member: string, host: string): boolean {
  // cut at the first `/` of the last line (what `/\/.*$/` removed, without rescanning from every `/`: quadratic)
  const lower = member.toLowerCase();
  const lastLine = Math.max(...['\n', '\r', '\u2028', '\u2029'].map((t) => lower.lastIndexOf(t))) + 1;
  const slash = lower.indexOf('/', lastLine);
  const m = slash < 0 ? lower : lower.slice(0, slash);
  if (m.startsWith('*.')) return host.endsWith(m.slice(1));
  return host === m;
}

function response(status: 'success' | 'error', code: string | undefined, inner: string): string {
  return `<response status="${status}"${code ? ` code="${code}"` : ''}>${inner}</response>`;
}

export async function startPanosSimulator(
  options: PanosSimulatorOptions,
): Promise<SimulatorHandle<PanosSimulatorState>> {
  const username = options.username ?? 'admin';
  const password = options.password ?? 'admin';
  const commitPolls = options.commitPolls ?? 1;
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
    evaluate(profileName, host) {
      const vsys = resolveXpath(state.running, parseXpath(PANOS_VSYS_XPATH)!)!.node;
      const profile = path(vsys, 'profiles', 'url-filtering')?.children.find((e) => e.attrs.name === profileName);
      if (!profile) throw new Error(`no url-filtering profile ${profileName} in the running config`);
      const actionOf = (category: string) =>
        STRICTNESS.filter((action) => members(path(profile, action)).includes(category));
      const strictest = (categories: string[]) => {
        let best = -1;
        for (const category of categories) {
          for (const action of actionOf(category)) best = Math.max(best, STRICTNESS.indexOf(action));
        }
        return best;
      };
      const h = host.toLowerCase();
      const customs = path(vsys, 'profiles', 'custom-url-category')?.children ?? [];
      const matchedCustom = customs
        .filter((c) => members(path(c, 'list')).some((m) => urlListMatches(m, h)))
        .map((c) => c.attrs.name!);
      // custom URL categories are checked before predefined ones
      const customBest = strictest(matchedCustom);
      if (customBest >= 0) return STRICTNESS[customBest]!;
      const predefinedBest = strictest(lookupCategories(categoryDb, h));
      return predefinedBest >= 0 ? STRICTNESS[predefinedBest]! : 'allow';
    },
    customCategories() {
      const vsys = resolveXpath(state.running, parseXpath(PANOS_VSYS_XPATH)!)!.node;
      const out: Record<string, string[]> = {};
      for (const entry of path(vsys, 'profiles', 'custom-url-category')?.children ?? [])
        out[entry.attrs.name!] = members(path(entry, 'list'));
      return out;
    },
    syslogProfiles() {
      return path(state.running, 'shared', 'log-settings', 'syslog')?.children ?? [];
    },
  };

  const handleConfig = (params: URLSearchParams): { http: number; body: string } => {
    const action = params.get('action') ?? '';
    const xpath = params.get('xpath');
    if (!xpath)
      return { http: 400, body: response('error', '400', '<result><msg>Missing parameter: xpath</msg></result>') };
    if (xpath === '/config/predefined/pan-url-categories' && (action === 'get' || action === 'show')) {
      const entries = panPredefinedCategories.map((name) => `<entry name="${escapeXml(name)}"/>`).join('');
      return {
        http: 200,
        body: response('success', '19', `<result><pan-url-categories>${entries}</pan-url-categories></result>`),
      };
    }
    const steps = parseXpath(xpath);
    if (!steps || steps[0]?.tag !== 'config')
      return { http: 200, body: response('error', '6', '<msg><line>Bad XPath</line></msg>') };
    switch (action) {
      case 'get':
      case 'show': {
        const found = resolveXpath(action === 'get' ? state.candidate : state.running, steps);
        if (!found) return { http: 200, body: response('success', '7', '<result/>') };
        return {
          http: 200,
          body: response('success', '19', `<result total-count="1" count="1">${serialize(found.node)}</result>`),
        };
      }
      case 'set':
      case 'edit': {
        const elementXml = params.get('element');
        if (!elementXml)
          return {
            http: 400,
            body: response('error', '400', '<result><msg>Missing parameter: element</msg></result>'),
          };
        let elements: XmlNode[];
        try {
          elements = parseXml(elementXml);
        } catch {
          return { http: 200, body: response('error', '18', '<msg><line>Malformed Request</line></msg>') };
        }
        if (action === 'set') {
          const target = resolveXpath(state.candidate, steps, true)!;
          mergeInto(target.node, el(target.node.tag, elements));
        } else {
          const last = steps[steps.length - 1]!;
          const replacement = elements[0];
          if (
            !replacement ||
            elements.length !== 1 ||
            replacement.tag !== last.tag ||
            (last.name !== undefined && replacement.attrs.name !== last.name)
          ) {
            return {
              http: 200,
              body: response('error', '12', '<msg><line>edit: element does not match the xpath node</line></msg>'),
            };
          }
          const target = resolveXpath(state.candidate, steps, true)!;
          target.node.children = clone(replacement).children;
          target.node.text = replacement.text;
        }
        state.dirty = true;
        return { http: 200, body: response('success', '20', '<msg>command succeeded</msg>') };
      }
      case 'delete': {
        const found = resolveXpath(state.candidate, steps);
        if (!found || !found.parent)
          return { http: 200, body: response('success', '7', "<msg>Object doesn't exist</msg>") };
        const name = found.node.attrs.name;
        if (found.parent.tag === 'custom-url-category' && name) {
          const vsys = resolveXpath(state.candidate, parseXpath(PANOS_VSYS_XPATH)!)!.node;
          const inUse = (path(vsys, 'profiles', 'url-filtering')?.children ?? []).find((profile) =>
            STRICTNESS.some((a) => members(path(profile, a)).includes(name)),
          );
          if (inUse) {
            return {
              http: 200,
              body: response(
                'error',
                '10',
                `<msg><line>${escapeXml(name)} cannot be deleted because of references from: url-filtering ${escapeXml(inUse.attrs.name ?? '')}</line></msg>`,
              ),
            };
          }
        }
        found.parent.children = found.parent.children.filter((c) => c !== found.node);
        state.dirty = true;
        return { http: 200, body: response('success', '20', '<msg>command succeeded</msg>') };
      }
      default:
        return {
          http: 400,
          body: response(
            'error',
            '400',
            `<result><msg>Illegal value for parameter "action" [${escapeXml(action)}]</msg></result>`,
          ),
        };
    }
  };

  const validateCandidate = (): string[] => {
    const vsys = resolveXpath(state.candidate, parseXpath(PANOS_VSYS_XPATH)!)!.node;
    const customNames = new Set(
      (path(vsys, 'profiles', 'custom-url-category')?.children ?? []).map((c) => c.attrs.name),
    );
    const known = new Set(panPredefinedCategories);
    const problems: string[] = [];
    for (const profile of path(vsys, 'profiles', 'url-filtering')?.children ?? []) {
      for (const action of STRICTNESS) {
        for (const member of members(path(profile, action))) {
          if (!customNames.has(member) && !known.has(member)) {
            problems.push(`url-filtering -> ${profile.attrs.name} -> ${action} '${member}' is not a valid reference`);
          }
        }
      }
    }
    return problems;
  };

  const handleOp = (cmd: string): { http: number; body: string } => {
    let nodes: XmlNode[];
    try {
      nodes = parseXml(cmd);
    } catch {
      return { http: 200, body: response('error', '18', '<msg><line>Malformed Request</line></msg>') };
    }
    const root = nodes[0];
    if (root?.tag === 'show' && path(root, 'system', 'info')) {
      const info = Object.entries(state.systemInfo)
        .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
        .join('');
      return { http: 200, body: response('success', undefined, `<result><system>${info}</system></result>`) };
    }
    if (root?.tag === 'show' && path(root, 'jobs', 'id')) {
      const id = Number(path(root, 'jobs', 'id')?.text);
      const job = state.jobs.find((j) => j.id === id);
      if (!job) return { http: 200, body: response('error', undefined, `<msg><line>job ${id} not found</line></msg>`) };
      job.polls++;
      if (job.status === 'ACT' && job.polls > commitPolls) {
        const problems = validateCandidate();
        job.status = 'FIN';
        if (problems.length) {
          job.result = 'FAIL';
          job.details = ['Validation Error:', ...problems, 'Commit failed'];
        } else {
          job.result = 'OK';
          job.details = ['Configuration committed successfully'];
          state.running = clone(state.candidate);
          state.dirty = false;
        }
      }
      const details = job.details.map((line) => `<line>${escapeXml(line)}</line>`).join('');
      const progress = job.status === 'FIN' ? '100' : '55';
      return {
        http: 200,
        body: response(
          'success',
          undefined,
          `<result><job><tenq>2026/01/01 00:00:00</tenq><id>${job.id}</id><type>Commit</type><status>${job.status}</status><result>${job.result}</result><progress>${progress}</progress><details>${details}</details><warnings/></job></result>`,
        ),
      };
    }
    return { http: 200, body: response('error', '17', '<msg><line>Invalid command</line></msg>') };
  };

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
        if (params.get('user') === username && params.get('password') === password) {
          return reply(200, response('success', undefined, `<result><key>${escapeXml(options.apiKey)}</key></result>`));
        }
        return reply(
          403,
          "<response status = 'error' code = '403'><result><msg>Invalid Credential</msg></result></response>",
        );
      }
      const key = (req.headers['x-pan-key'] as string | undefined) ?? params.get('key');
      if (key !== options.apiKey) {
        return reply(
          403,
          "<response status = 'error' code = '403'><result><msg>Invalid Credential</msg></result></response>",
        );
      }
      switch (type) {
        case 'version':
          return reply(
            200,
            response(
              'success',
              undefined,
              `<result><sw-version>${state.systemInfo['sw-version']}</sw-version><multi-vsys>off</multi-vsys><model>${state.systemInfo.model}</model><serial>${state.systemInfo.serial}</serial></result>`,
            ),
          );
        case 'op': {
          const cmd = params.get('cmd');
          if (!cmd) return reply(400, response('error', '400', '<result><msg>Missing parameter: cmd</msg></result>'));
          const r = handleOp(cmd);
          return reply(r.http, r.body);
        }
        case 'config': {
          const r = handleConfig(params);
          return reply(r.http, r.body);
        }
        case 'commit': {
          if (!state.dirty) return reply(200, response('success', '19', '<msg>There are no changes to commit.</msg>'));
          const job: PanosJob = { id: state.jobs.length + 1, polls: 0, status: 'ACT', result: 'PEND', details: [] };
          state.jobs.push(job);
          return reply(
            200,
            response(
              'success',
              '19',
              `<result><msg><line>Commit job enqueued with jobid ${job.id}</line></msg><job>${job.id}</job></result>`,
            ),
          );
        }
        default:
          return reply(
            400,
            response(
              'error',
              '400',
              `<result><msg>Illegal value for parameter "type" [${escapeXml(type)}]</msg></result>`,
            ),
          );
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end(response('error', '5', '<msg><line>Internal error</line></msg>'));
    });
  });

  return listenOnLoopback(server, options.port, state);
}
