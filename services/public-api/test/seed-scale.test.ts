// The scale seeder (bench/seed-scale.ts, docs/performance.md "Seeding a large database") run as the command it is, on
// this suite's scratch database at a small scale, then read back through the real app: the rows it writes must be
// rows the API serves, each org seeing only its own assets.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { defaultPartitionRows } from '@risk/db';
import request from 'supertest';
import { MAX_HEADER_SIZE } from '../src/app';
import { createHarness, type Harness } from './harness';

const SEED = join(__dirname, '..', 'bench', 'seed-scale.ts');
const SCALE = { signals: 2000, assets: 200, orgs: 3 };

let h: Harness;
let server: Server;
let dir: string;
let keys: Array<{ org_id: string; key: string }>;

function seed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SEED, '--database-url', h.ctx.databaseUrl, ...args],
      { cwd: join(__dirname, '..'), maxBuffer: 1 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const scaleArgs = () => [
  '--signals',
  String(SCALE.signals),
  '--assets',
  String(SCALE.assets),
  '--orgs',
  String(SCALE.orgs),
  '--months',
  '3',
];

/** The fingerprints each org observes, as the seeder recorded them (asset_orgs). */
async function fingerprintsOf(org: string): Promise<string[]> {
  const rows = await h.ctx.db.prisma.assetOrg.findMany({ where: { org_id: org }, select: { fingerprint: true } });
  return rows.map((r) => r.fingerprint).sort();
}

const auth = (org: number) => ({ Authorization: `Bearer ${keys[org]!.key}` });

beforeAll(async () => {
  h = await createHarness('seedscale');
  dir = mkdtempSync(join(tmpdir(), 'seed-scale-'));
  server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeServer(server, { deadlineMs: 1000 });
  await h.close();
});

test('refuses a database that holds data, and writes nothing', async () => {
  // the harness minted an API key: the database is not empty
  const out = await seed(scaleArgs());
  expect(out.code).toBe(2);
  expect(out.stderr).toMatch(/not empty.*--append/);
  expect(await h.ctx.db.prisma.signal.count()).toBe(0);
  expect(await h.ctx.db.prisma.asset.count()).toBe(0);
}, 120_000);

describe('after a seed with --append', () => {
  beforeAll(async () => {
    const keysOut = join(dir, 'keys.json');
    const out = await seed([...scaleArgs(), '--append', '--keys-out', keysOut]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/signals: 2000 rows in [\d.]+ s \(\d+ rows\/s\)/);
    expect(out.stdout).toMatch(/^total: \d+ rows in [\d.]+ s/m);
    keys = JSON.parse(readFileSync(keysOut, 'utf8')) as typeof keys;
    // the keys are written, never printed
    for (const k of keys) expect(out.stdout).not.toContain(k.key);
  }, 240_000);

  test('writes the rows asked for, every signal in its month partition, ids carrying their rows’ time', async () => {
    const { prisma, pool } = h.ctx.db;
    expect(await prisma.signal.count()).toBe(SCALE.signals);
    expect(await prisma.asset.count()).toBe(SCALE.assets);
    expect(keys.map((k) => k.org_id).sort()).toEqual(['org_seed_000', 'org_seed_001', 'org_seed_002']);
    expect(await defaultPartitionRows(pool)).toEqual({ signals: 0, events: 0 });
    const { rows } = await pool.query<{ months: number; stray: number; assets: number; findings: number }>(
      `SELECT (SELECT count(DISTINCT date_trunc('month', created)) FROM signals)::int AS months,
              (SELECT count(*) FROM signals WHERE abs(extract(epoch FROM created - risk_id_time(id, 0))) > 3600)::int AS stray,
              (SELECT count(*) FROM assets WHERE enrichment_status = 'enriched' AND current_aibom_id IS NOT NULL
                  AND enriched_digest = latest_digest)::int AS assets,
              (SELECT count(DISTINCT fingerprint) FROM findings)::int AS findings`,
    );
    expect(rows[0]!.months).toBeGreaterThanOrEqual(3);
    expect(rows[0]!.stray).toBe(0);
    expect(rows[0]!.assets).toBe(SCALE.assets);
    expect(rows[0]!.findings).toBeGreaterThan(SCALE.assets / 2);
    // several AI-BOM versions for a fraction of the assets
    const multi = await prisma.aiBom.groupBy({ by: ['fingerprint'], having: { bom_version: { _max: { gt: 1 } } } });
    expect(multi.length).toBeGreaterThan(0);
    expect(multi.length).toBeLessThan(SCALE.assets);
  });

  test('GET of an asset answers the enriched asset with the org’s own observed version', async () => {
    // assets are shared intelligence (docs/security.md "Modes and shared observations"); the display fields are the
    // org's own (docs/security.md "Display fields and feeds")
    const shared = await h.ctx.db.prisma.assetOrg.groupBy({
      by: ['fingerprint'],
      having: { org_id: { _count: { gt: 1 } } },
    });
    expect(shared.length).toBeGreaterThan(0);
    const fp = shared[0]!.fingerprint;
    const stored = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      include: { orgs: true },
    });
    for (const ob of stored.orgs) {
      const org = keys.findIndex((k) => k.org_id === ob.org_id);
      const res = await request(h.app)
        .get(`/v1/assets/${encodeURIComponent(fp)}`)
        .set(auth(org));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        fingerprint: fp,
        enrichment_status: 'enriched',
        intrinsic_risk_score: stored.intrinsic_risk_score,
        aibom: stored.current_aibom_id,
        version: ob.version,
      });
    }
  });

  test('an asset’s findings, AI-BOM and AI-BOM versions are served as stored', async () => {
    const mine = await fingerprintsOf('org_seed_000');
    const boms = await h.ctx.db.prisma.aiBom.groupBy({
      by: ['fingerprint'],
      where: { fingerprint: { in: mine } },
      _count: { _all: true },
      orderBy: { _count: { id: 'desc' } },
      take: 1,
    });
    const fp = boms[0]!.fingerprint;
    const path = `/v1/assets/${encodeURIComponent(fp)}`;
    const versions = await request(h.app).get(`${path}/aibom/versions`).set(auth(0));
    expect(versions.status).toBe(200);
    expect(versions.body.data).toHaveLength(boms[0]!._count._all);
    const aibom = await request(h.app).get(`${path}/aibom`).set(auth(0));
    expect(aibom.status).toBe(200);
    const findings = await request(h.app).get(`${path}/findings`).set(auth(0));
    expect(findings.status).toBe(200);
    expect(findings.body.data).toHaveLength(await h.ctx.db.prisma.finding.count({ where: { fingerprint: fp } }));
  });

  test('list pages walk every asset of the mode once', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await request(h.app)
        .get('/v1/assets')
        .query({ limit: 50, ...(after ? { starting_after: after } : {}) })
        .set(auth(1));
      expect(res.status).toBe(200);
      const page = res.body.data as Array<{ fingerprint: string }>;
      seen.push(...page.map((a) => a.fingerprint));
      if (!res.body.has_more) break;
      after = page.at(-1)!.fingerprint;
    }
    const all = await h.ctx.db.prisma.asset.findMany({ select: { fingerprint: true } });
    expect(seen.sort()).toEqual(all.map((a) => a.fingerprint).sort());
  });

  test('the look-up of 500 keys matches every seeded fingerprint and none of the unknown ones', async () => {
    const all = (await h.ctx.db.prisma.asset.findMany({ select: { fingerprint: true } })).map((a) => a.fingerprint);
    const asked = [...all];
    while (asked.length < 500) asked.push(`unknown:${asked.length}`);
    const qs = asked.map((fp) => `fingerprints=${encodeURIComponent(fp)}`).join('&');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const res = await request(base).get(`/v1/assets/lookup?${qs}`).set(auth(2));
    expect(res.status).toBe(200);
    const data = res.body.data as Array<{ match: string; asset: { fingerprint: string } | null }>;
    expect(data.map((r) => r.asset?.fingerprint ?? null)).toEqual(asked.map((fp, i) => (i < all.length ? fp : null)));
  });

  test('an org’s events are those of the assets it observed', async () => {
    const mine = new Set(await fingerprintsOf('org_seed_002'));
    const res = await request(h.app).get('/v1/events').query({ limit: 100 }).set(auth(2));
    expect(res.status).toBe(200);
    const data = res.body.data as Array<{ type: string; data: { object: { fingerprint: string } } }>;
    expect(data.length).toBeGreaterThan(0);
    for (const e of data) expect(mine.has(e.data.object.fingerprint)).toBe(true);
  });

  test('the overview counts the org’s assets', async () => {
    const mine = await fingerprintsOf('org_seed_000');
    const res = await request(h.app).get('/v1/overview').set(auth(0));
    expect(res.status).toBe(200);
    expect(res.body.assets.total).toBe(mine.length);
    const bySeverity = Object.values(res.body.assets.by_intrinsic_severity as Record<string, number>);
    expect(bySeverity.reduce((a, n) => a + n, 0)).toBe(mine.length);
  });

  test('a seeded signal is read by id from its month by the org that sent it', async () => {
    const signal = await h.ctx.db.prisma.signal.findFirstOrThrow({
      where: { org_id: 'org_seed_001' },
      orderBy: { created: 'asc' },
    });
    const res = await request(h.app).get(`/v1/signals/${signal.id}`).set(auth(1));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: signal.id, fingerprint: signal.fingerprint, version: signal.version });
    expect((await request(h.app).get(`/v1/signals/${signal.id}`).set(auth(0))).status).toBe(404);
  });
});
