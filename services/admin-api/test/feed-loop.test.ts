// The whole loop (docs/feeds.md "The loop"): a policy rule "block assets at or above high" compiles into a
// reference to the tenant's feed (a PAN-OS External Dynamic List, a FortiGate external threat feed) with a feed
// credential the sync mints for the firewall; the simulated device pulls the feed from the listening admin API
// with HTTP Basic; an application asset becomes high risk → the feed lists its host → the device, after its
// next pull, blocks it. Real Postgres, Redis and the admin app on a loopback port.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  evaluatePolicy,
  policyModelOf,
  syncPolicyAssignment,
} from '@risk/firewalls';
import { harnessWithTenant, unique, type AdminHarness, type Tenant } from './harness';
import { startSimulators, type Simulators } from './simulators';
import { observedApplication, setAssetScore } from './feed-fixtures';

let h: AdminHarness;
let tenant: Tenant;
let server: Server;
let feedBaseUrl: string;
let sims: Simulators;
const P = '/policies/v1/url-filter';

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminfeedloop', { deps: { feedCacheTtlMs: 0 } }));
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  feedBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sims = await startSimulators(h);
});
afterAll(async () => {
  await sims?.close();
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
});

describe.each([
  ['PAN-OS', 'palo_alto' as const],
  ['FortiOS', 'fortinet' as const],
])('risk feed loop on the %s simulator', (_name, vendor) => {
  it('asset becomes high risk → the feed lists its host → the device pulls it and blocks it', async () => {
    const fw = await sims.createFirewall(tenant, vendor);
    const policy = await h.createPolicy(tenant.auth, {
      name: unique('risky-ai'),
      default_action: 'allow',
      rules: [
        { name: 'allow docs', action: 'allow', domains: ['docs.example.org'] },
        { name: 'block risky AI', action: 'block', min_asset_severity: 'high' },
      ],
    });
    expect(policy.status).toBe(201);
    expect(policy.body.rules[1].min_asset_severity).toBe('high');
    const assigned = await h.call('post', `${P}/${policy.body.id}/assign`, {
      auth: tenant.auth,
      body: { firewall_ids: [fw.id] },
    });
    const assignmentId = assigned.body.assignments[0].id as string;
    const host = `${vendor.replace('_', '-')}-shadow-llm.example.net`;
    const fingerprint = await observedApplication(h, { tenant, url: `https://${host}/v1/chat`, score: 20 });

    const synced = await syncPolicyAssignment(h.ctx.db.prisma, assignmentId, {
      secretsKey: h.ctx.config.SECRETS_KEY!,
      connectorFor: h.connectorFor,
      feedBaseUrl,
    });
    expect(synced).toEqual({ assignment_id: assignmentId, status: 'synced' });
    const row = await h.ctx.db.prisma.policyAssignment.findUniqueOrThrow({ where: { id: assignmentId } });
    const profile = (row.pushed_objects as { profile: string }).profile;
    // the sync minted a feed token for this firewall; the device holds it, the API never showed it
    const tokens = await h.call('get', '/feeds/v1/tokens', { auth: tenant.auth });
    const fwToken = tokens.body.data.find((t: { firewall_id: string | null }) => t.firewall_id === fw.id);
    expect(fwToken).toMatchObject({ status: 'active', token_prefix: expect.stringMatching(/^rkf_/) });
    expect(tokens.text).not.toContain('"token"');

    const evaluate = (name: string) =>
      vendor === 'palo_alto' ? sims.pan.state.evaluate(profile, name) : sims.forti.state.evaluate(profile, name);
    const refresh = () => (vendor === 'palo_alto' ? sims.pan.state.refreshEdls() : sims.forti.state.refreshFeeds());
    const pulled = () => [...(vendor === 'palo_alto' ? sims.pan.state.edls : sims.forti.state.feeds).lists.values()];

    // pushed: the device pulled the feed at once, with the firewall's credential; the asset is low risk
    expect(pulled()).toHaveLength(1);
    // (PAN-OS pulls on commit and again on the connector's `request system external-list refresh`: 304)
    expect(pulled()[0]).toMatchObject({ lastError: null, etag: expect.any(String), source: { username: fwToken.id } });
    expect(pulled()[0]!.source.url).toBe(
      `${feedBaseUrl}/feeds/v1/lists/${vendor === 'palo_alto' ? 'panos-url' : 'fortigate-url'}/high`,
    );
    expect(evaluate(host)).toBe('allow');
    await refresh();
    expect(pulled()[0]!.lastStatus).toBe(304); // unchanged list: If-None-Match → 304, the old copy stays

    // the asset becomes high risk → the next pull lists it → the device blocks it (and its subdomains)
    await setAssetScore(h, { fingerprint, score: 85 });
    await refresh();
    expect(pulled()[0]).toMatchObject({ lastStatus: 200, lastError: null });
    expect(pulled()[0]!.entries).toEqual(expect.arrayContaining([host, `*.${host}`]));
    expect(evaluate(host)).toBe('block');
    expect(evaluate(`api.${host}`)).toBe('block');
    expect(evaluate('docs.example.org')).toBe('allow');
    // our reference evaluator agrees for the host now in the feed
    const model = policyModelOf(
      await h.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({
        where: { id: policy.body.id },
        include: { rules: true },
      }),
    );
    expect(evaluatePolicy(model, { host, categories: [], risk_score: 0, feed_severity: 'high' }).action).toBe('block');

    // revoking the firewall's feed token: the device's next pull fails and it keeps its last good copy
    await h.call('delete', `/feeds/v1/tokens/${fwToken.id}`, { auth: tenant.auth });
    await refresh();
    expect(pulled()[0]).toMatchObject({ lastStatus: 401, lastError: 'HTTP 401' });
    expect(evaluate(host)).toBe('block');
  });
});
