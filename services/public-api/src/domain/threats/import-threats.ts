import { ApiError } from '@risk/common/errors';
import { recordEventsWithDeliveries } from '@risk/common/events';
import {
  type StixBundleBody,
  type ThreatImport,
  type ThreatImportedObject,
  type ThreatImportResult,
} from '@risk/contracts';
import { lockThreatImport, lockThreatsForImport, type Threat as ThreatRow } from '@risk/db';
import { planStixImport, StixBundleError, type StixThreatDraft } from '@risk/enrichment';
import { planMerge, type MergeDecision } from './import-merge';
import { enqueueAfterCommit, markMatchingAssetsForReenrichment, type ThreatDeps } from './reenrich';
import { renderThreat } from './render';
import type { ThreatActor } from './create-threat';
import { createThreatRows, updateThreatRows } from './import-writes';

/**
 * POST /v1/threats/import (docs/threats.md "STIX exchange"): a STIX 2.1 bundle creates or updates the org's threats in
 * one transaction, serialised per org and mode (an advisory lock: two imports of one bundle cannot both create). Every
 * object gets a line in the report. A bundle that is not STIX (a bad pattern) is 400 before anything is written.
 *
 * Events (docs/webhooks.md): each threat created or changed gets its `threat.created` / `threat.updated` for the
 * importing org only, and every org gets ONE `threat.imported` naming them, so one request causes at most one
 * delivery per endpoint of another org whatever the bundle's size.
 */
export async function importThreats(
  deps: ThreatDeps,
  actor: ThreatActor,
  bundle: StixBundleBody,
): Promise<ThreatImport> {
  const objects = bundle.objects as Array<Record<string, unknown>>;
  let plan;
  try {
    plan = planStixImport(objects, bundle.id);
  } catch (err) {
    if (err instanceof StixBundleError)
      throw new ApiError('parameter_invalid', { param: err.param, message: err.message });
    throw err;
  }
  const outcome = await deps.prisma.$transaction(async (tx) => {
    const mode = `${actor.org_id}:${actor.livemode ? 'live' : 'test'}`;
    await lockThreatImport(tx, mode);
    const ownIds = plan.drafts.map((d) => d.own_threat_id).filter((x): x is string => !!x);
    const stixIds = plan.drafts.map((d) => d.stix_id);
    // the threats this bundle may update, locked in id order: ours by x_risk_threat_id, earlier imports by STIX id
    const existing = await lockThreatsForImport(tx, { livemode: actor.livemode, orgId: actor.org_id, ownIds, stixIds });
    const claimed = new Set<string>();
    const decisions = plan.drafts.map((d) => planMerge(d, { actor, existing, claimed }));
    // the weight is known here, before any write: the threats this import creates or changes (an object that changes
    // nothing costs nothing); a refusal rolls the transaction back with nothing written
    await deps.countWrites?.(decisions.filter((d) => d.kind === 'create' || d.kind === 'update').length);
    const created = await createThreatRows(tx, actor, decisions);
    const updated = await updateThreatRows(tx, decisions);
    const reason = `threats-import:${bundle.id}:${Date.now()}`;
    const before = updated.map((u) => u.before);
    const enrichments = await markMatchingAssetsForReenrichment(
      tx,
      [...created, ...before, ...updated.map((u) => u.after)],
      reason,
    );
    const events = await recordEventsWithDeliveries(tx, [
      ...created.map((row) => ({
        type: 'threat.created' as const,
        livemode: row.livemode,
        object: renderThreat(row),
        org_id: actor.org_id,
      })),
      ...updated.map((u) => ({
        type: 'threat.updated' as const,
        livemode: u.after.livemode,
        object: renderThreat(u.after),
        extra: { previous_attributes: previousAttributes(u.before, u.changed) },
        org_id: actor.org_id,
      })),
      ...(created.length + updated.length > 0
        ? [
            {
              type: 'threat.imported' as const,
              livemode: actor.livemode,
              object: importEventObject(actor, bundle.id, {
                created: created.map((row) => row.id),
                updated: updated.map((u) => u.after.id),
              }),
            },
          ]
        : []),
    ]);
    const ids = new Map<StixThreatDraft, string>();
    decisions.forEach((d, i) => {
      const draft = plan.drafts[i]!;
      if (d.kind === 'update' || d.kind === 'unchanged') ids.set(draft, d.row.id);
    });
    const creates = decisions.filter((d) => d.kind === 'create');
    created.forEach((row, i) => ids.set(creates[i]!.draft, row.id));
    return { decisions, ids, enrichments, deliveries: events.deliveries };
  });
  await enqueueAfterCommit(deps, outcome.enrichments, outcome.deliveries);
  const results = report(objects, plan, outcome);
  const count = (s: ThreatImportResult['status']) => results.filter((r) => r.status === s).length;
  return {
    object: 'threat_import',
    bundle_id: bundle.id,
    livemode: actor.livemode,
    summary: { imported: count('imported'), merged: count('merged'), skipped: count('skipped') },
    results,
  };
}

/** What `threat.imported` carries (ZThreatImportedEvent): who imported which bundle, and the threats it wrote. */
function importEventObject(
  actor: ThreatActor,
  bundleId: string,
  threatIds: { created: string[]; updated: string[] },
): ThreatImportedObject {
  return {
    object: 'threat_import',
    bundle_id: bundleId,
    livemode: actor.livemode,
    created_by_org: actor.org_id,
    created_threat_ids: threatIds.created,
    updated_threat_ids: threatIds.updated,
  };
}

function previousAttributes(before: ThreatRow, changed: readonly string[]): Record<string, unknown> {
  const previous = renderThreat(before) as unknown as Record<string, unknown>;
  return Object.fromEntries([...changed, 'updated'].map((k) => [k, previous[k]]));
}

/** One line per object, in bundle order. */
function report(
  objects: ReadonlyArray<Record<string, unknown>>,
  plan: ReturnType<typeof planStixImport>,
  outcome: { decisions: MergeDecision[]; ids: Map<StixThreatDraft, string> },
): ThreatImportResult[] {
  const { decisions, ids } = outcome;
  const byRoot = new Map(plan.drafts.map((d, i) => [d.stix_id, decisions[i]!]));
  return objects.map((o) => {
    const stix_id = String(o.id);
    const type = String(o.type);
    const line = (status: ThreatImportResult['status'], rest: Partial<ThreatImportResult>): ThreatImportResult => ({
      stix_id,
      type,
      status,
      reason: null,
      message: '',
      threat_ids: [],
      changed: false,
      ...rest,
    });
    const decision = byRoot.get(stix_id);
    if (decision) {
      const id = ids.get(decision.draft);
      if (decision.kind === 'skip') return line('skipped', { reason: decision.reason, message: decision.message });
      if (decision.kind === 'create')
        return line('imported', { message: 'A new threat.', threat_ids: [id!], changed: true });
      return line('merged', {
        reason: decision.kind === 'update' ? 'updated' : 'up_to_date',
        message:
          decision.kind === 'update'
            ? `Updated ${decision.changed.join(', ')}.`
            : 'The threat already says what this object says.',
        threat_ids: [id!],
        changed: decision.kind === 'update',
      });
    }
    const skip = plan.skipped.get(stix_id);
    if (skip) return line('skipped', { reason: skip.reason, message: skip.message });
    const into = plan.drafts.filter((d) => d.related.includes(stix_id) && ids.has(d)).map((d) => ids.get(d)!);
    if (into.length === 0)
      return line('skipped', { reason: 'threat_skipped', message: 'Every threat it belongs to was skipped.' });
    return line('merged', {
      reason: 'related',
      message: 'Merged into the threats it is related to.',
      threat_ids: into,
    });
  });
}
