// The PAN-OS simulator's in-memory device: candidate and running config trees, commit jobs, the PAN-DB
// stand-in, the External Dynamic Lists it pulled, and the device's own URL evaluation (custom categories and
// EDLs first, strictest action wins; then predefined categories) that tests compare with our evaluator.
import { el, members, parseXpath, path, resolveXpath, type XmlNode } from '../../../lib/xml-tree';
import { aiDomains, AI_PARENT_CATEGORY } from '../../../categories';
import type { FeedPuller } from '../../../simulators/feed-puller';
import { panGranularAiCategory } from '../pan-db';

export const PANOS_VSYS_XPATH = "/config/devices/entry[@name='localhost.localdomain']/vsys/entry[@name='vsys1']";

export const STRICTNESS = ['allow', 'alert', 'continue', 'override', 'block'] as const;
export type PanAction = (typeof STRICTNESS)[number];

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
  /** the External Dynamic Lists of the running config, as last pulled */
  edls: FeedPuller;
  /** PAN-OS evaluation of a host against a running URL filtering profile. */
  evaluate(profileName: string, host: string): PanAction;
  /** custom URL category entry → members, from the running config */
  customCategories(): Record<string, string[]>;
  syslogProfiles(): XmlNode[];
  /** pull every EDL now (what `request system external-list refresh` does for one) */
  refreshEdls(): Promise<void>;
}

export function emptyConfig(): XmlNode {
  const vsys = el(
    'entry',
    [
      el('profiles', [el('custom-url-category'), el('url-filtering')]),
      el('external-list'),
      el('log-settings', [el('profiles')]),
      el('rulebase', [el('security', [el('rules')])]),
    ],
    { name: 'vsys1' },
  );
  const device = el('entry', [el('vsys', [vsys])], { name: 'localhost.localdomain' });
  return el('config', [el('devices', [device]), el('shared', [el('log-settings', [el('syslog')])])]);
}

export function vsysOf(config: XmlNode): XmlNode {
  return resolveXpath(config, parseXpath(PANOS_VSYS_XPATH)!)!.node;
}

export function defaultCategoryDb(): Map<string, string[]> {
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
export function urlListMatches(member: string, host: string): boolean {
  // cut at the first `/` of the last line (what `/\/.*$/` removed, without rescanning from every `/`: quadratic)
  const lower = member.toLowerCase();
  const lastLine = Math.max(...['\n', '\r', '\u2028', '\u2029'].map((t) => lower.lastIndexOf(t))) + 1;
  const slash = lower.indexOf('/', lastLine);
  const m = slash < 0 ? lower : lower.slice(0, slash);
  if (m.startsWith('*.')) return host.endsWith(m.slice(1));
  return host === m;
}

/** The device's evaluation of a host against a running URL filtering profile. */
export function evaluateOnDevice(
  state: Pick<PanosSimulatorState, 'running' | 'categoryDb' | 'edls'>,
  input: { profileName: string; host: string },
): PanAction {
  const vsys = vsysOf(state.running);
  const profile = path(vsys, 'profiles', 'url-filtering')?.children.find((e) => e.attrs.name === input.profileName);
  if (!profile) throw new Error(`no url-filtering profile ${input.profileName} in the running config`);
  const actionOf = (category: string) =>
    STRICTNESS.filter((action) => members(path(profile, action)).includes(category));
  const strictest = (categories: string[]) => {
    let best = -1;
    for (const category of categories) {
      for (const action of actionOf(category)) best = Math.max(best, STRICTNESS.indexOf(action));
    }
    return best;
  };
  const h = input.host.toLowerCase();
  const customs = path(vsys, 'profiles', 'custom-url-category')?.children ?? [];
  const matchedCustom = customs
    .filter((c) => members(path(c, 'list')).some((m) => urlListMatches(m, h)))
    .map((c) => c.attrs.name!);
  // External Dynamic Lists of URLs count with the custom categories (checked before predefined ones)
  const matchedEdls = [...state.edls.lists]
    .filter(([, list]) => list.entries.some((m) => urlListMatches(m, h)))
    .map(([name]) => name);
  const customBest = strictest([...matchedCustom, ...matchedEdls]);
  if (customBest >= 0) return STRICTNESS[customBest]!;
  const predefinedBest = strictest(lookupCategories(state.categoryDb, h));
  return predefinedBest >= 0 ? STRICTNESS[predefinedBest]! : 'allow';
}
