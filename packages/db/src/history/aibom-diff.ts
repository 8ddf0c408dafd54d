/**
 * The pure AI-BOM comparison (docs/history.md "Diffs"): components matched by (type, name) — a version
 * bump is a change, not a removal and an addition — and compared on version, licence, hashes and
 * supplier; lineage compared on relation and base models; the primary component's licence on its own.
 * GET /v1/assets/{fp}/aibom/diff answers it, and the enrichment writer summarises it in asset.aibom_changed
 * and asset.risk_changed events (./change-summary.ts). The shapes match ZAiBomDiff (@risk/contracts).
 */

export interface FindingRef {
  rule_id: string;
  title: string;
  severity: 'critical' | 'high' | 'medium' | 'low' | 'informational';
}
interface Change<T> {
  from: T;
  to: T;
}
export interface ComponentRef {
  type: string;
  name: string;
  version: string | null;
}
export interface ComponentsDiff {
  added: ComponentRef[];
  removed: ComponentRef[];
  changed: Array<{ type: string; name: string; changes: Record<string, Change<unknown>> }>;
}
export interface LineageDiff {
  relation: Change<string | null> | null;
  base_models_added: string[];
  base_models_removed: string[];
}

type Component = Record<string, unknown>;
interface Lineage {
  relation?: unknown;
  base_models?: Array<{ id?: unknown }>;
}

const COMPARED_FIELDS = ['version', 'license', 'hashes', 'supplier'] as const;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const keyOf = (c: Component) => `${str(c.type) ?? ''}\0${str(c.name) ?? ''}`;
const ref = (c: Component) => ({ type: str(c.type) ?? '', name: str(c.name) ?? '', version: str(c.version) });
/** key-order independent equality for the JSON values components hold */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  ) ?? 'null';

function byKey(components: Component[]): Map<string, Component> {
  const map = new Map<string, Component>();
  for (const c of components) if (!map.has(keyOf(c))) map.set(keyOf(c), c);
  return map;
}

export function diffComponents(from: Component[], to: Component[]): ComponentsDiff {
  const before = byKey(from);
  const after = byKey(to);
  const added = [...after].filter(([k]) => !before.has(k)).map(([, c]) => ref(c));
  const removed = [...before].filter(([k]) => !after.has(k)).map(([, c]) => ref(c));
  const changed: ComponentsDiff['changed'] = [];
  for (const [k, next] of after) {
    const prev = before.get(k);
    if (!prev) continue;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const f of COMPARED_FIELDS) {
      if (canonical(prev[f] ?? null) !== canonical(next[f] ?? null))
        changes[f] = { from: prev[f] ?? null, to: next[f] ?? null };
    }
    if (Object.keys(changes).length) changed.push({ type: str(next.type) ?? '', name: str(next.name) ?? '', changes });
  }
  return { added, removed, changed };
}

export function diffLineage(from: unknown, to: unknown): LineageDiff {
  const a = (from ?? {}) as Lineage;
  const b = (to ?? {}) as Lineage;
  const ids = (l: Lineage) => new Set((l.base_models ?? []).map((m) => str(m.id)).filter((x): x is string => !!x));
  const before = ids(a);
  const after = ids(b);
  const relA = str(a.relation);
  const relB = str(b.relation);
  return {
    relation: relA === relB ? null : { from: relA, to: relB },
    base_models_added: [...after].filter((m) => !before.has(m)).sort(),
    base_models_removed: [...before].filter((m) => !after.has(m)).sort(),
  };
}

export function diffPrimaryLicense(from: Component[], to: Component[]): Change<string | null> | null {
  const lic = (cs: Component[]) => str(cs.find((c) => c.primary === true)?.license);
  const a = lic(from);
  const b = lic(to);
  return a === b ? null : { from: a, to: b };
}

interface SnapshotRef extends FindingRef {
  key: string;
}

/** Findings of two history snapshots: added and removed by finding identity (the snapshot key). */
export function diffFindingSnapshots(from: unknown, to: unknown): { added: FindingRef[]; removed: FindingRef[] } {
  const a = from as SnapshotRef[];
  const b = to as SnapshotRef[];
  const keysA = new Set(a.map((f) => f.key));
  const keysB = new Set(b.map((f) => f.key));
  const plain = (f: SnapshotRef): FindingRef => ({ rule_id: f.rule_id, title: f.title, severity: f.severity });
  return {
    added: b.filter((f) => !keysA.has(f.key)).map(plain),
    removed: a.filter((f) => !keysB.has(f.key)).map(plain),
  };
}
