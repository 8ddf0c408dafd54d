import type { Pool } from 'pg';
import type { WebhookReceiver } from '../faults/more-processes';
import { heapFloorVerdict, routeStats, rssVerdict } from './monitor';
import type { TrafficState } from './traffic';

/** The soak's final reconciliation and its markdown report (docs/reliability.md "Soak"). */
export interface Reconciliation {
  signalsAccepted: number;
  signalsStored: number;
  assets: number;
  enrichedAtLatest: number;
  assetsByStatus: Record<string, number>;
  events: number;
  eventsWithoutDelivery: number;
  deliveries: Record<string, number>;
  receiverAccepted: number;
  deliveredNotReceived: number;
  duplicateReceipts: number;
  assignment: {
    sync_status: string;
    target_version: number;
    synced_version: number | null;
    policy_version: number;
  } | null;
}

export async function reconcile(
  pool: Pool,
  opts: { state: TrafficState; receiver: WebhookReceiver; policyId: string },
): Promise<Reconciliation> {
  const { rows } = await pool.query<{
    signals: number;
    assets: number;
    at_latest: number;
    by_status: Record<string, number> | null;
    events: number;
    orphan_events: number;
    deliveries: Record<string, number> | null;
  }>(
    `SELECT (SELECT count(*)::int FROM signals) AS signals,
            (SELECT count(*)::int FROM assets) AS assets,
            (SELECT count(*)::int FROM assets WHERE enrichment_status = 'enriched' AND enriched_digest = latest_digest) AS at_latest,
            (SELECT jsonb_object_agg(s, n) FROM (SELECT enrichment_status s, count(*)::int n FROM assets GROUP BY 1) x) AS by_status,
            (SELECT count(*)::int FROM events) AS events,
            (SELECT count(*)::int FROM events e WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)) AS orphan_events,
            (SELECT jsonb_object_agg(s, n) FROM (SELECT status s, count(*)::int n FROM webhook_deliveries GROUP BY 1) x) AS deliveries`,
  );
  const r = rows[0]!;
  const { rows: delivered } = await pool.query<{ event_id: string }>(
    `SELECT event_id FROM webhook_deliveries WHERE status = 'delivered'`,
  );
  const received = opts.receiver.received.filter((x) => x.answered < 300).map((x) => x.eventId);
  const receivedSet = new Set(received);
  const { rows: assignment } = await pool.query(
    `SELECT a.sync_status, a.target_version, a.synced_version, p.version AS policy_version
       FROM policy_assignments a JOIN url_filter_policies p ON p.id = a.policy_id WHERE a.policy_id = $1`,
    [opts.policyId],
  );
  return {
    signalsAccepted: opts.state.signalsAccepted,
    signalsStored: r.signals,
    assets: r.assets,
    enrichedAtLatest: r.at_latest,
    assetsByStatus: r.by_status ?? {},
    events: r.events,
    eventsWithoutDelivery: r.orphan_events,
    deliveries: r.deliveries ?? {},
    receiverAccepted: receivedSet.size,
    deliveredNotReceived: delivered.filter((d) => !receivedSet.has(d.event_id)).length,
    duplicateReceipts: received.length - receivedSet.size,
    assignment: (assignment[0] as Reconciliation['assignment']) ?? null,
  };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

export function renderReport(input: {
  state: TrafficState;
  rss: Record<string, number[]>;
  /** V8 heap in use (MiB) after warm-up, for the processes whose /metrics the soak scrapes */
  heap: Record<string, number[]>;
  recon: Reconciliation;
  lines: string[];
  drained: boolean;
  drainS: number;
  rate: number;
  seconds: number;
  warmup: number;
  commit: string;
}): { markdown: string; pass: boolean } {
  const { state, recon } = input;
  const stats = routeStats(state.samples, input.seconds);
  const rss = rssVerdict(input.rss);
  const heap = heapFloorVerdict(input.heap);
  const fiveXx = state.samples.filter((s) => s.status >= 500 || s.status === 0).length;
  const deliveredAll = (recon.deliveries.delivered ?? 0) === Object.values(recon.deliveries).reduce((a, b) => a + b, 0);
  const checks: Array<[string, boolean]> = [
    [
      `signals accepted (${recon.signalsAccepted}) = signals stored (${recon.signalsStored})`,
      recon.signalsAccepted === recon.signalsStored,
    ],
    [
      `every asset enriched at its latest digest (${recon.enrichedAtLatest} / ${recon.assets})`,
      recon.enrichedAtLatest === recon.assets,
    ],
    [
      `every event has a delivery (${recon.events} events, ${recon.eventsWithoutDelivery} without)`,
      recon.eventsWithoutDelivery === 0,
    ],
    [`every delivery delivered (${JSON.stringify(recon.deliveries)})`, deliveredAll],
    [
      `every delivered event reached the receiver (${recon.deliveredNotReceived} missing)`,
      recon.deliveredNotReceived === 0,
    ],
    [
      `the firewall holds the latest policy version (${JSON.stringify(recon.assignment)})`,
      recon.assignment?.sync_status === 'synced' && recon.assignment.synced_version === recon.assignment.policy_version,
    ],
    [`no 5xx and no unanswered request (${fiveXx})`, fiveXx === 0],
    [`drained within the limit (${input.drainS} s)`, input.drained],
    // a process whose heap is scraped passes on its heap: RSS also follows V8 growing (and rarely returning)
    // its spaces, which is not a leak; RSS stays in the line for the record (docs/reliability.md "Soak")
    ...Object.entries(rss).map(([n, v]): [string, boolean] => {
      const h = heap[n];
      const rssText = `RSS ${v.min}–${v.max} MiB, +${(v.growth * 100).toFixed(0)} %`;
      if (!h) return [`RSS of ${n} flat within 20 % after warm-up (${rssText})`, v.pass];
      const pct = (h.growth * 100).toFixed(0);
      return [
        `heap floor of ${n} flat within 20 % after warm-up (${h.first} → ${h.second} MiB, ${pct} %; ${rssText})`,
        h.pass,
      ];
    }),
  ];
  const pass = checks.every(([, ok]) => ok);
  const md = [
    `Soak ${new Date().toISOString()} · commit ${input.commit} · ${input.rate} req/s for ${input.seconds} s (warm-up ${input.warmup} s) · ${os()}`,
    '',
    `Requests: ${state.samples.length} answered (${(state.samples.length / input.seconds).toFixed(1)}/s), ${state.skipped} not sent (client at its in-flight cap).`,
    '',
    '| route | requests | per s | p50 ms | p99 ms | max ms | non-2xx |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...stats.map(
      (s) =>
        `| ${s.route} | ${s.count} | ${s.perSecond.toFixed(2)} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} | ${Object.keys(s.errors).length ? JSON.stringify(s.errors) : '0'} |`,
    ),
    '',
    `Every ${input.lines.length > 1 ? 'interval' : 'sample'} (RSS and V8 heap in use in MiB; lag = unfinished BullMQ jobs by queue, waiting outbox rows, assets waiting for enrichment and the oldest one's wait):`,
    '',
    '```',
    ...input.lines,
    '```',
    '',
    `Assets by status: ${JSON.stringify(recon.assetsByStatus)}; receiver accepted ${recon.receiverAccepted} distinct events (${recon.duplicateReceipts} repeated receipts).`,
    '',
    '| check | result |',
    '| --- | --- |',
    ...checks.map(([what, ok]) => `| ${what} | ${ok ? 'pass' : 'FAIL'} |`),
    '',
    `Result: ${pass ? 'pass' : 'FAIL'}`,
  ].join('\n');
  return { markdown: md, pass };
}

function os(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cpus, totalmem } = require('node:os') as typeof import('node:os');
  return `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`;
}
