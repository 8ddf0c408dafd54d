import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/**
 * The soak's mixed traffic (docs/reliability.md "Soak"): a fixed request rate, open loop (a request is sent on
 * schedule whether or not the previous ones answered, up to MAX_IN_FLIGHT), over the public API (single and
 * bulk ingest, reads, look-ups, threat creates and updates) and the admin API (policy edits and reads).
 */
export interface Target {
  publicUrl: string;
  adminUrl: string;
  /** public API key (test mode: http webhook receivers are accepted there) */
  key: string;
  orgId: string;
  /** tenant token of the admin API */
  tenantAuth: string;
  policyId: string;
}

export interface Sample {
  route: string;
  ms: number;
  status: number;
}

export interface TrafficState {
  samples: Sample[];
  /** signals answered 202 (a bulk counts its items) */
  signalsAccepted: number;
  fingerprints: string[];
  signalIds: string[];
  threatIds: string[];
  skipped: number;
  inFlight: number;
  /** a policy edit is under way */
  editing?: boolean;
}

const MAX_IN_FLIGHT = 200;
const BULK_SIZE = 10;

async function send(
  state: TrafficState,
  route: string,
  url: string,
  init: { method?: string; auth: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const started = performance.now();
  let status = 0;
  let body: Record<string, unknown> = {};
  try {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: init.auth,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    status = res.status;
    body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  } catch {
    // no answer (refused, reset): recorded as status 0
  }
  state.samples.push({ route, ms: performance.now() - started, status });
  return { status, body };
}

const pick = <T>(xs: T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
let seq = 0;

function signal(t: Target, fingerprint: string, variant: number) {
  return {
    fingerprint,
    asset_type: 'mcp_server',
    org_id: t.orgId,
    observed_at: Math.floor(Date.now() / 1000) - 30,
    name: fingerprint.replace(/^npm:/, '').replace(/@[^@]*$/, ''),
    version: '1.0.0',
    raw_manifest: JSON.stringify({
      name: fingerprint,
      version: '1.0.0',
      description: `soak variant ${variant}`,
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' },
    }),
    metadata: { collector: 'soak', host: `host-${variant % 7}` },
  };
}

/** One request of the mix; weights in percent. */
const MIX: Array<[number, (t: Target, s: TrafficState) => Promise<unknown>]> = [
  [
    26,
    async (t, s) => {
      // 75 % a new asset, 25 % new content for a known one (re-enrichment)
      const known = Math.random() < 0.25 ? pick(s.fingerprints) : undefined;
      const fingerprint = known ?? `npm:soak-${++seq}@1.0.0`;
      const res = await send(s, 'POST /v1/signals', `${t.publicUrl}/v1/signals`, {
        method: 'POST',
        auth: `Bearer ${t.key}`,
        body: signal(t, fingerprint, ++seq),
      });
      if (res.status === 202) {
        s.signalsAccepted += 1;
        if (!known) s.fingerprints.push(fingerprint);
        if (typeof res.body.id === 'string' && s.signalIds.length < 1000) s.signalIds.push(res.body.id);
      }
    },
  ],
  [
    2,
    async (t, s) => {
      const fps = Array.from({ length: BULK_SIZE }, () => `npm:soak-${++seq}@1.0.0`);
      const res = await send(s, 'POST /v1/signals/bulk', `${t.publicUrl}/v1/signals/bulk`, {
        method: 'POST',
        auth: `Bearer ${t.key}`,
        body: { signals: fps.map((fp) => signal(t, fp, seq)) },
      });
      if (res.status === 202) {
        s.signalsAccepted += BULK_SIZE;
        s.fingerprints.push(...fps);
        // the compact 202 (docs/public-api.md "Signals and assets"): one receipt per signal, in request order
        const receipts = Array.isArray(res.body.data) ? (res.body.data as Array<{ id?: unknown }>) : [];
        for (const r of receipts) if (typeof r.id === 'string' && s.signalIds.length < 1000) s.signalIds.push(r.id);
      }
    },
  ],
  [
    25,
    async (t, s) => {
      const fp = pick(s.fingerprints);
      if (fp)
        await send(s, 'GET /v1/assets/{fingerprint}', `${t.publicUrl}/v1/assets/${encodeURIComponent(fp)}`, {
          auth: `Bearer ${t.key}`,
        });
    },
  ],
  [10, (t, s) => send(s, 'GET /v1/assets', `${t.publicUrl}/v1/assets?limit=20`, { auth: `Bearer ${t.key}` })],
  [
    10,
    async (t, s) => {
      const fps = [pick(s.fingerprints), pick(s.fingerprints), 'npm:never-seen@0.0.1'].filter(Boolean) as string[];
      const q = fps.map((f) => `fingerprints=${encodeURIComponent(f)}`).join('&');
      await send(s, 'GET /v1/assets/lookup', `${t.publicUrl}/v1/assets/lookup?${q}`, { auth: `Bearer ${t.key}` });
    },
  ],
  [5, (t, s) => send(s, 'GET /v1/events', `${t.publicUrl}/v1/events?limit=10`, { auth: `Bearer ${t.key}` })],
  [
    5,
    async (t, s) => {
      const id = pick(s.signalIds);
      if (id) await send(s, 'GET /v1/signals/{id}', `${t.publicUrl}/v1/signals/${id}`, { auth: `Bearer ${t.key}` });
    },
  ],
  [
    6,
    async (t, s) => {
      // a threat naming a few known assets (their re-enrichment), or an update of one (re-enrichment again)
      const existing = s.threatIds.length >= 20 || (s.threatIds.length > 0 && Math.random() < 0.5);
      const fingerprints = [...new Set([pick(s.fingerprints), pick(s.fingerprints)].filter(Boolean) as string[])];
      if (existing) {
        await send(s, 'POST /v1/threats/{id}', `${t.publicUrl}/v1/threats/${pick(s.threatIds)}`, {
          method: 'POST',
          auth: `Bearer ${t.key}`,
          body: { severity: pick(['high', 'medium', 'critical']), fingerprints },
        });
      } else {
        const res = await send(s, 'POST /v1/threats', `${t.publicUrl}/v1/threats`, {
          method: 'POST',
          auth: `Bearer ${t.key}`,
          body: { category: 'malicious_package', title: `soak threat ${++seq}`, severity: 'high', fingerprints },
        });
        if (res.status === 201 && typeof res.body.id === 'string') s.threatIds.push(res.body.id);
      }
    },
  ],
  [
    2,
    async (t, s) => {
      // a policy edit: swap the first two rules (a new version, pushed to the firewall by the worker); one at a
      // time, as one operator would (two at once race on expected_version: 409 by design)
      if (s.editing) return;
      s.editing = true;
      try {
        await editPolicy(t, s);
      } finally {
        s.editing = false;
      }
    },
  ],
  [3, (t, s) => send(s, 'GET /firewalls/v1', `${t.adminUrl}/firewalls/v1`, { auth: t.tenantAuth })],
  [2, (t, s) => send(s, 'GET /policies/v1/url-filter', `${t.adminUrl}/policies/v1/url-filter`, { auth: t.tenantAuth })],
];
const TOTAL_WEIGHT = MIX.reduce((a, [w]) => a + w, 0);

async function editPolicy(t: Target, s: TrafficState): Promise<void> {
  const current = await send(
    s,
    'GET /policies/v1/url-filter/{id}',
    `${t.adminUrl}/policies/v1/url-filter/${t.policyId}`,
    {
      auth: t.tenantAuth,
    },
  );
  const rules = (current.body.rules as Array<{ id: string }> | undefined) ?? [];
  if (rules.length < 2) return;
  await send(
    s,
    'POST /policies/v1/url-filter/{id}/rules/reorder',
    `${t.adminUrl}/policies/v1/url-filter/${t.policyId}/rules/reorder`,
    {
      method: 'POST',
      auth: t.tenantAuth,
      body: {
        rule_ids: [rules[1]!.id, rules[0]!.id, ...rules.slice(2).map((r) => r.id)],
        expected_version: current.body.version,
      },
    },
  );
}

function oneRequest(t: Target, s: TrafficState): Promise<unknown> {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const [w, fn] of MIX) {
    r -= w;
    if (r < 0) return fn(t, s);
  }
  return MIX[0]![1](t, s);
}

/** Sends `rate` requests per second for `seconds`; resolves when every request sent has answered. */
export async function drive(t: Target, s: TrafficState, opts: { rate: number; seconds: number }): Promise<void> {
  const started = performance.now();
  const pending = new Set<Promise<unknown>>();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      if (elapsed >= opts.seconds) {
        clearInterval(timer);
        resolve();
        return;
      }
      const due = Math.floor(elapsed * opts.rate) - sent;
      for (let i = 0; i < due; i++) {
        sent++;
        if (s.inFlight >= MAX_IN_FLIGHT) {
          s.skipped++;
          continue;
        }
        s.inFlight++;
        const p = oneRequest(t, s).finally(() => {
          s.inFlight--;
          pending.delete(p);
        });
        pending.add(p);
      }
    }, 10);
  });
  await Promise.allSettled([...pending]);
}
