// Test helpers for the risk feeds: an application asset observed by a tenant's org (live mode), written the way
// ingest and enrichment leave it, and a feed token.
import type { AdminHarness, Tenant } from './harness';

let n = 0;

/** An enriched live application asset at `url` with `score`, observed by the tenant's org. */
export async function observedApplication(h: AdminHarness, input: { tenant: Tenant; url: string; score: number }) {
  const fingerprint = `app:test-${++n}-${input.url}`;
  const now = new Date();
  await h.ctx.db.prisma.asset.create({
    data: {
      livemode: true,
      fingerprint,
      asset_type: 'application',
      name: fingerprint,
      source_url: input.url,
      enrichment_status: 'enriched',
      intrinsic_risk_score: input.score,
      latest_signal_id: `sig_test${n}`,
      latest_digest: `digest-${n}`,
      first_seen: now,
      last_seen: now,
      // the org's own URL is what its feed reads (docs/security.md "Display fields and feeds")
      orgs: { create: { org_id: input.tenant.org_id, name: fingerprint, source_url: input.url } },
    },
  });
  return fingerprint;
}

export async function setAssetScore(h: AdminHarness, input: { fingerprint: string; score: number }) {
  await h.ctx.db.prisma.asset.update({
    where: { livemode_fingerprint: { livemode: true, fingerprint: input.fingerprint } },
    data: { intrinsic_risk_score: input.score },
  });
}

/** A feed token: its id, secret and both ways of sending it. */
export async function feedToken(h: AdminHarness, tenant: Tenant) {
  const res = await h.call('post', '/feeds/v1/tokens', { auth: tenant.auth, body: { name: 'edl' } });
  if (res.status !== 201) throw new Error(`feed token: ${res.status} ${res.text}`);
  const id = res.body.id as string;
  const secret = res.body.token as string;
  return {
    id,
    secret,
    basic: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
    bearer: `Bearer ${secret}`,
  };
}
