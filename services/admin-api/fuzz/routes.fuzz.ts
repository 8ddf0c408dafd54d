import { describeRouteFuzz, fuzzSettings, type FuzzSuite, type OpenApiDocument } from '@risk/testing/src/fuzz';
import { buildAdminOpenApiDocument } from '../src/openapi';
import { closedPort, createAdminHarness, type AdminHarness } from '../test/harness';

/**
 * Property-based requests over every route of the admin API's OpenAPI document (docs/reliability.md "Fuzz"),
 * with the shared machinery of packages/testing/src/fuzz: path parameters hostile or real (another tenant, a
 * firewall, a policy, its rules and tokens), documented and hostile queries, bodies from the document's schemas
 * (valid-looking, fields replaced, any JSON, broken JSON), the admin token, a tenant token or hostile
 * Authorization values (a huge one, a JWT-looking one), a repeated Idempotency-Key. Invariant: never a 5xx; a
 * 4xx with the envelope writes no row of the tables an admin route can write; a 2xx the document lists.
 * FUZZ_RUNS (default 60) runs per route; FUZZ_SEED (default fixed) the seed.
 */
const { runs, seed } = fuzzSettings({ runs: 60 });
const doc = buildAdminOpenApiDocument() as unknown as OpenApiDocument;

let h: AdminHarness;
let suite: FuzzSuite;
beforeAll(async () => {
  h = await createAdminHarness('fuzzadm');
  const tenant = await h.registerTenant();
  // the one whose id the fuzzer sends to the admin routes (suspend, revoke, tokens): the acting tenant stays usable
  const other = await h.registerTenant();
  const fw = await h.createFirewall(tenant.auth, {
    name: 'fuzz-fw',
    type: 'palo_alto',
    host: '127.0.0.1',
    port: await closedPort(),
    api_token: h.newApiToken(),
    verify_ssl: false,
  });
  expect(fw.status).toBe(201);
  const policy = await h.createPolicy(tenant.auth, {
    name: 'fuzz-policy',
    default_action: 'allow',
    rules: [
      { name: 'allow chatgpt', action: 'allow', domains: ['chatgpt.com'] },
      { name: 'block chat', action: 'block', categories: ['ai-chat-assistant'] },
    ],
  });
  expect(policy.status).toBe(201);
  const deployment = await h.call('post', `/tenants/v1/${other.id}/deployment-token`, {
    auth: h.adminAuth,
    body: { name: 'fuzz', expires_in_hours: 1, max_uses: 5 },
  });
  expect(deployment.status).toBe(201);
  const tokens = await h.call('get', `/tenants/v1/${other.id}/tokens`, { auth: h.adminAuth });
  suite = {
    app: h.app,
    doc,
    auth: { admin: h.adminAuth, tenant: tenant.auth },
    knownIds: {
      id: [other.id, fw.body.id, policy.body.id],
      fwId: [fw.body.id],
      ruleId: (policy.body.rules as Array<{ id: string }>).map((r) => r.id),
      token_id: [deployment.body.id, ...(tokens.body.data as Array<{ id: string }>).map((t) => t.id)],
    },
    rowCounts: async () => {
      const { rows } = await h.ctx.db.pool.query(
        `SELECT (SELECT count(*) FROM tenants) t, (SELECT max(updated) FROM tenants) tu,
                (SELECT count(*) FROM tenant_tokens) tt, (SELECT count(revoked_at) FROM tenant_tokens) ttr,
                (SELECT count(*) FROM deployment_tokens) dt, (SELECT count(revoked_at) FROM deployment_tokens) dtr,
                (SELECT sum(use_count) FROM deployment_tokens) dtu, (SELECT count(*) FROM api_keys) k,
                (SELECT count(*) FROM firewalls) f, (SELECT count(*) FROM url_filter_policies) p,
                (SELECT max(updated) FROM url_filter_policies) pu, (SELECT count(*) FROM url_filter_rules) r,
                (SELECT max(updated) FROM url_filter_rules) ru, (SELECT count(*) FROM policy_assignments) a,
                (SELECT max(updated) FROM policy_assignments) au, (SELECT count(*) FROM outbox) o`,
      );
      return JSON.stringify(rows[0]);
    },
    runs,
    seed,
  };
});
afterAll(() => h.close());

describeRouteFuzz({ doc, minRoutes: 25, suite: () => suite });
