// The FortiOS simulator's in-memory device: web filter tables and profiles, the syslog setting, external
// threat feeds (system external-resource) with the lists pulled for them, and the device's own evaluation of a
// host: static URL filter in entry order, then the category filter, where a host a remote-category feed lists
// is rated with that category instead of its FortiGuard one (docs/feeds.md).
import type { FeedPuller } from '../../../simulators/feed-puller';
import type { Json } from './envelope';

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

export interface FortiExternalResource extends Json {
  name: string;
  type: string;
  category?: number;
  resource: string;
  username?: string;
  password?: string;
  'refresh-rate'?: number;
  status?: string;
}

export interface FortinetSimulatorState {
  urlfilters: FortiUrlFilterTable[];
  profiles: FortiWebProfile[];
  externalResources: FortiExternalResource[];
  syslogd: Json;
  requests: Array<{ method: string; path: string }>;
  categoryDb: Map<string, number>;
  /** the lists pulled for the external resources, by resource name */
  feeds: FeedPuller;
  evaluate(profileName: string, host: string): 'allow' | 'alert' | 'block';
  /** pull every external resource now */
  refreshFeeds(): Promise<void>;
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

function staticDecision(state: FortinetSimulatorState, input: { profile: FortiWebProfile; host: string }) {
  const table = state.urlfilters.find((t) => t.id === input.profile.web?.['urlfilter-table']);
  for (const entry of table?.entries ?? []) {
    if (entry.status !== 'enable') continue;
    const h = input.host;
    const matches =
      entry.type === 'wildcard'
        ? wildcardMatches(entry.url, h)
        : h === entry.url || (table?.['include-subdomains'] !== 'disable' && h.endsWith(`.${entry.url}`));
    if (!matches) continue;
    if (entry.action === 'block') return 'block';
    if (entry.action === 'exempt') return 'allow';
    if (entry.action === 'monitor') return 'monitored';
    return 'continue'; // allow: the first matching entry decides the static step, then the category check runs
  }
  return 'continue';
}

function categoryOf(state: FortinetSimulatorState, host: string): number {
  // a remote category (a FortiGuard Category feed) overrides the FortiGuard rating
  for (const resource of state.externalResources) {
    if (resource.type !== 'category' || resource.status === 'disable' || resource.category === undefined) continue;
    const list = state.feeds.lists.get(resource.name);
    if (list?.entries.some((entry) => (entry.includes('*') ? wildcardMatches(entry, host) : entry === host)))
      return resource.category;
  }
  const labels = host.split('.');
  for (let i = 0; i < labels.length; i++) {
    const found = state.categoryDb.get(labels.slice(i).join('.'));
    if (found !== undefined) return found;
  }
  return 0;
}

export function evaluateOnDevice(state: FortinetSimulatorState, input: { profileName: string; host: string }) {
  const profile = state.profiles.find((p) => p.name === input.profileName);
  if (!profile) throw new Error(`no webfilter profile ${input.profileName}`);
  const host = input.host.toLowerCase();
  const step = staticDecision(state, { profile, host });
  if (step === 'block' || step === 'allow') return step;
  const category = categoryOf(state, host);
  const filter = profile['ftgd-wf']?.filters?.find((f) => f.category === category);
  if (filter?.action === 'block') return 'block';
  if (filter?.action === 'monitor' || filter?.action === 'warning') return 'alert';
  return step === 'monitored' ? 'alert' : 'allow';
}
