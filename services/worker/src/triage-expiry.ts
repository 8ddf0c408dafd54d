import { recordEventsWithDeliveries, type RecordedEvents } from '@risk/common/events';
import { ID_PREFIXES, newId } from '@risk/db';
import { expireAcceptedRisks } from '@risk/db';
import type { WorkerDeps } from './deps';

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * Ends the acceptances whose expiry passed (docs/triage.md "Expiry"): the finding's triage returns to
 * `open` (set_by `system`), a history row records accepted_risk → open, and a `finding.triage_expired`
 * event goes to the org that accepted the risk (never another org). One batch per call, in one
 * transaction: the state, its history and the events commit together.
 */
export async function expireTriage(
  deps: Pick<WorkerDeps, 'prisma'>,
  now = new Date(),
): Promise<RecordedEvents & { expired: number }> {
  return deps.prisma.$transaction(async (tx) => {
    const rows = await expireAcceptedRisks(tx, { now });
    if (rows.length === 0) return { expired: 0, event_ids: [], deliveries: [] };
    await tx.findingTriageEvent.createMany({
      data: rows.map((r) => ({
        id: newId(ID_PREFIXES.triageChange, now.getTime()),
        org_id: r.org_id,
        livemode: r.livemode,
        fingerprint: r.fingerprint,
        finding_key: r.finding_key,
        from_state: 'accepted_risk',
        to_state: 'open',
        justification: null,
        comment: r.comment,
        expires_at: null,
        set_by: 'system',
        created: now,
      })),
    });
    const recorded = await recordEventsWithDeliveries(
      tx,
      rows.map((r) => ({
        type: 'finding.triage_expired' as const,
        livemode: r.livemode,
        org_id: r.org_id,
        object: {
          object: 'finding_triage',
          fingerprint: r.fingerprint,
          rule_id: r.rule_id,
          finding_key: r.finding_key,
          state: 'open',
          justification: null,
          comment: r.comment,
          expires_at: null,
          set_by: 'system',
          created: unix(r.created),
          updated: unix(r.updated),
        },
        extra: { previous_attributes: { state: 'accepted_risk', expires_at: unix(r.expired_at) } },
      })),
    );
    return { expired: rows.length, ...recorded };
  });
}
