import { isDeepStrictEqual } from 'node:util';
import { ZCreateThreatBody, type CreateThreatBody } from '@risk/contracts';
import type { Prisma, Threat as ThreatRow } from '@risk/db';
import type { StixThreatDraft } from '@risk/enrichment';
import type { ThreatActor } from './create-threat';

/** What the import does with one threat-carrying object (docs/threats.md "STIX exchange"). */
export type MergeDecision =
  | { kind: 'skip'; draft: StixThreatDraft; reason: string; message: string }
  | { kind: 'create'; draft: StixThreatDraft; body: CreateThreatBody }
  | { kind: 'update'; draft: StixThreatDraft; row: ThreatRow; values: Partial<ThreatRow>; changed: string[] }
  | { kind: 'unchanged'; draft: StixThreatDraft; row: ThreatRow };

const seconds = (iso: string | null | undefined): number | null => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? Math.floor(t / 1000) : null;
};
const stixOf = (row: ThreatRow): Record<string, unknown> | null => {
  const m = row.metadata as Record<string, unknown> | null;
  return m && typeof m.stix === 'object' && m.stix ? (m.stix as Record<string, unknown>) : null;
};

/**
 * Create, update, leave or skip: ours by x_risk_threat_id (another org's is skipped: threats are shared, a copy would
 * count twice), an earlier import by its STIX id, else new. An object older than what the threat holds is skipped.
 */
export function planMerge(
  draft: StixThreatDraft,
  ctx: { actor: ThreatActor; existing: ThreatRow[]; claimed?: Set<string> },
): MergeDecision {
  const checked = createBodyOf(draft);
  if ('error' in checked) return { kind: 'skip', draft, reason: 'invalid_threat', message: checked.error };
  const own = draft.own_threat_id ? ctx.existing.find((r) => r.id === draft.own_threat_id) : undefined;
  if (own && own.created_by_org !== ctx.actor.org_id)
    return {
      kind: 'skip',
      draft,
      reason: 'not_owner',
      message: `Threat ${own.id} belongs to another organization and is already shared with every org.`,
    };
  const row =
    own ?? ctx.existing.find((r) => r.created_by_org === ctx.actor.org_id && stixOf(r)?.id === draft.stix_id && !own);
  if (!row) return { kind: 'create', draft, body: checked.body };
  // two objects of one bundle naming the same threat: the first one wins
  if (ctx.claimed?.has(row.id))
    return {
      kind: 'skip',
      draft,
      reason: 'duplicate',
      message: `An earlier object of this bundle merged into ${row.id}.`,
    };
  ctx.claimed?.add(row.id);
  const held = own ? Math.floor(row.updated.getTime() / 1000) : seconds(stixOf(row)?.modified as string | undefined);
  const incoming = seconds(draft.modified);
  if (held !== null && incoming !== null && incoming < held)
    return {
      kind: 'skip',
      draft,
      reason: 'older_version',
      message: `Threat ${row.id} holds a newer version (modified ${new Date(held * 1000).toISOString()}).`,
    };
  const values = mergedValues(row, draft, checked.body);
  const changed = Object.keys(values).filter((k) => !same(k, row[k as keyof ThreatRow], values[k as keyof ThreatRow]));
  if (changed.length === 0) return { kind: 'unchanged', draft, row };
  return {
    kind: 'update',
    draft,
    row,
    values: Object.fromEntries(changed.map((k) => [k, values[k as keyof ThreatRow]])),
    changed,
  };
}

/**
 * What the object states replaces the threat's; category, severity, penalty and asset types change only when the
 * object carries our x_risk_* properties (an import must not undo the org's own triage of a feed's threat).
 */
function mergedValues(row: ThreatRow, draft: StixThreatDraft, body: CreateThreatBody): Partial<ThreatRow> {
  const values: Partial<ThreatRow> = {
    title: body.title,
    description: body.description ?? null,
    confidence: body.confidence ?? null,
    fingerprints: body.fingerprints ?? [],
    attack_techniques: body.attack_techniques ?? [],
    cve_id: body.cve_id ?? null,
    remediation: body.remediation ?? null,
    source: body.source ?? null,
  };
  if (draft.explicit.category) values.category = body.category;
  if (draft.explicit.severity) values.severity = body.severity;
  if (draft.explicit.risk_penalty !== undefined) values.risk_penalty = body.risk_penalty ?? 0;
  if (draft.explicit.affected_asset_types) values.affected_asset_types = body.affected_asset_types ?? [];
  if (!draft.own_threat_id)
    values.metadata = {
      ...((row.metadata as Record<string, unknown> | null) ?? {}),
      stix: draft.stix,
    } as Prisma.JsonObject;
  return values;
}

/** Equality as an import sees it: lists as sets, confidence to the percent STIX carries. */
function same(key: string, a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && new Set([...a, ...b]).size === a.length;
  if (key === 'confidence' && typeof a === 'number' && typeof b === 'number')
    return Math.round(a * 100) === Math.round(b * 100);
  return isDeepStrictEqual(a ?? null, b ?? null);
}

/** The create body of a draft, validated like POST /v1/threats; or the first problem when it is not valid. */
export function createBodyOf(draft: StixThreatDraft): { body: CreateThreatBody } | { error: string } {
  const f = draft.fields;
  const parsed = ZCreateThreatBody.safeParse({
    category: f.category,
    title: f.title,
    severity: f.severity,
    ...(f.description ? { description: f.description } : {}),
    ...(f.confidence !== null ? { confidence: f.confidence } : {}),
    ...(draft.explicit.affected_asset_types ? { affected_asset_types: draft.explicit.affected_asset_types } : {}),
    fingerprints: f.fingerprints,
    attack_techniques: f.attack_techniques,
    ...(f.cve_id ? { cve_id: f.cve_id } : {}),
    ...(f.remediation ? { remediation: f.remediation } : {}),
    ...(f.source ? { source: f.source } : {}),
    ...(draft.explicit.risk_penalty !== undefined ? { risk_penalty: draft.explicit.risk_penalty } : {}),
    ...(draft.own_threat_id ? {} : { metadata: { stix: draft.stix } }),
  });
  if (parsed.success) return { body: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `${issue?.path.join('.') || 'threat'}: ${issue?.message ?? 'invalid'}` };
}
