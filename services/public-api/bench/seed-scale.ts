/**
 * `pnpm seed:scale`: fills a database with signals, enriched assets, AI-BOM versions, history, events and orgs with API
 * keys, for the benches to run against data as it grows (docs/performance.md "Seeding a large database").
 *
 *   pnpm seed:scale -- --database-url postgres://…/risk_scale --signals 1000000 --assets 100000 --orgs 100
 *
 * Signals carry the labelled corpus's real manifests (seed-corpus.ts), with per-asset names and versions that move
 * over time; every distinct manifest is enriched once by the real engine (analyze + finalize) and its findings and
 * AI-BOM are reused by the assets of that manifest. Rows go in with COPY through @risk/db's seed store, in time
 * order, so ids carry their rows' creation time as the API's do (docs/scaling.md "Monthly partitions").
 */
import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES, type EventObject } from '@risk/contracts';
import {
  analyzeSeeded,
  copySeedRows,
  createPrisma,
  ensureSeedMonths,
  findingRow,
  findingSnapshot,
  ID_PREFIXES,
  newId,
  seededSizes,
  seedExistingRows,
  type SeedRow,
} from '@risk/db';
import { analyze, finalize, normalizeAssetName, type EnrichmentResult } from '@risk/enrichment';
import { renderAsset } from '../src/domain/assets/render';
import { contentDigest, newAssetRow } from '../src/domain/signals/ingest-rows';
import { loadCorpusManifests, type CorpusManifest } from './seed-corpus';

const DAY_MS = 86_400_000;

interface Options {
  databaseUrl: string;
  signals: number;
  assets: number;
  orgs: number;
  months: number;
  shapes: number | undefined;
  append: boolean;
  keysOut: string | undefined;
  seed: number;
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      'database-url': { type: 'string' },
      signals: { type: 'string', default: '1000000' },
      assets: { type: 'string', default: '100000' },
      orgs: { type: 'string', default: '100' },
      months: { type: 'string', default: '6' },
      shapes: { type: 'string' },
      append: { type: 'boolean', default: false },
      'keys-out': { type: 'string' },
      seed: { type: 'string', default: '1' },
    },
  });
  const int = (name: string, v: string | undefined, min: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min} (got ${v})`);
    return n;
  };
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url (or DATABASE_URL) is required');
  const o: Options = {
    databaseUrl,
    signals: int('signals', values.signals, 1),
    assets: int('assets', values.assets, 1),
    orgs: int('orgs', values.orgs, 1),
    months: int('months', values.months, 1),
    shapes: values.shapes === undefined ? undefined : int('shapes', values.shapes, 1),
    append: values.append ?? false,
    keysOut: values['keys-out'],
    seed: int('seed', values.seed, 0),
  };
  if (o.signals < o.assets) throw new Error('--signals must be at least --assets (every asset has a signal)');
  return o;
}

/** mulberry32: a small seeded generator, so one --seed gives one data set. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One distinct manifest and the engine's result for it, shared by every asset drawn from it. */
interface Shape {
  entry: CorpusManifest;
  result: EnrichmentResult;
}

function enrichShapes(entries: CorpusManifest[], now: Date): Shape[] {
  return entries.map((entry) => ({
    entry,
    result: finalize(
      analyze({
        fingerprint: `seed:${entry.id}`,
        asset_type: entry.asset_type,
        name: entry.name,
        version: null,
        source_url: `https://github.com/${entry.repo}`,
        raw_manifest: entry.manifest,
        metadata: null,
      }),
      {
        threats: [],
        publisher: { org_count: 1, signal_count: 1, first_seen: now.toISOString() },
        now: now.toISOString(),
      },
    ),
  }));
}

/** What the signal pass learns of each asset (and of each org's observation), for the rows written after it. */
interface AssetState {
  fingerprint: string;
  name: string;
  shape: number;
  orgs: number[];
  signals: number;
  /** the signal index at which each AI-BOM version was made (0 for the first) */
  bomAt: number[];
  bomIds: string[];
  bomTimes: number[];
  seen: number;
  firstSeen: number;
  lastSeen: number;
  lastSignalId: string;
  lastDigest: string;
  lastVersion: string;
  perOrg: Map<number, OrgObservation>;
}

interface OrgObservation {
  count: number;
  first: number;
  last: number;
  signalId: string;
  digest: string;
  version: string;
}

const orgId = (i: number) => `org_seed_${String(i).padStart(3, '0')}`;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48) || 'asset';

/** The assets and their signals' times (sorted): each asset first seen somewhere in the window, seen again after. */
function planAssets(o: Options, shapes: Shape[], start: number, end: number, rnd: () => number, tag: string) {
  const assets: AssetState[] = [];
  // signal counts: at least one each, the rest spread with a long tail (a few assets are seen very often)
  const extra = o.signals - o.assets;
  const weights = Array.from({ length: o.assets }, () => -Math.log(1 - rnd()));
  const total = weights.reduce((a, w) => a + w, 0) || 1;
  const counts = weights.map((w) => 1 + Math.floor((w / total) * extra));
  for (let left = o.signals - counts.reduce((a, c) => a + c, 0), j = 0; left > 0; left--, j = (j + 1) % o.assets)
    counts[j]!++;
  const time = new Float64Array(o.signals);
  const owner = new Int32Array(o.signals);
  let k = 0;
  for (let j = 0; j < o.assets; j++) {
    const shape = Math.floor(rnd() * shapes.length);
    const entry = shapes[shape]!.entry;
    const primary = j % o.orgs;
    // about one asset in six is also observed by a second org (a shared package or model)
    const orgs =
      o.orgs > 1 && rnd() < 0.16 ? [primary, (primary + 1 + Math.floor(rnd() * (o.orgs - 1))) % o.orgs] : [primary];
    const n = counts[j]!;
    // most assets have one AI-BOM version; a fifth have two or three (their manifest changed)
    const r = rnd();
    const versions = Math.min(n, r < 0.1 ? 3 : r < 0.2 ? 2 : 1);
    const first = start + rnd() * (end - start) * 0.95;
    const name = `${entry.name}-${tag}${j.toString(36)}`;
    assets.push({
      fingerprint: `${entry.asset_type}:${slug(entry.name)}-${tag}${j.toString(36)}`,
      name,
      shape,
      orgs,
      signals: n,
      bomAt: Array.from({ length: versions }, (_, v) => Math.floor((v * n) / versions)),
      bomIds: [],
      bomTimes: [],
      seen: 0,
      firstSeen: first,
      lastSeen: first,
      lastSignalId: '',
      lastDigest: '',
      lastVersion: '',
      perOrg: new Map(),
    });
    time[k] = first;
    owner[k++] = j;
    for (let i = 1; i < n; i++) {
      time[k] = first + rnd() * (end - first);
      owner[k++] = j;
    }
  }
  const order = new Uint32Array(o.signals).map((_, i) => i);
  order.sort((a, b) => time[a]! - time[b]!);
  return { assets, time, owner, order };
}

interface EventRef {
  id: string;
  type: 'asset.created' | 'asset.enriched';
  asset: number;
  bom: number;
  at: number;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const started = performance.now();
  const db = createPrisma({ url: o.databaseUrl, applicationName: 'seed-scale', max: 4, statementTimeoutMs: 0 });
  try {
    const existing = await seedExistingRows(db.pool).catch((err: unknown) => {
      // undefined_table: a database that exists but was never migrated
      if ((err as { code?: string }).code === '42P01')
        throw new Error('the database has no schema: run `DATABASE_URL=… pnpm cli db migrate` first');
      throw err;
    });
    if (!o.append && Object.values(existing).some((n) => n > 0)) {
      console.error(`seed:scale: the database is not empty (${JSON.stringify(existing)}); pass --append to add to it`);
      process.exitCode = 2;
      return;
    }
    // the window ends a minute ago: every id is minted for a time in the past, in time order (ids.ts keeps them
    // increasing, so a later id for an earlier time would carry the wrong month)
    const now = Date.now();
    const end = now - 60_000;
    const start = end - o.months * 30 * DAY_MS;
    const rnd = random(o.seed);
    // an append's assets get fingerprints of their own whatever --seed says (a repeated seed would collide)
    const tag = (o.append ? randomInt(36 ** 4) : 0).toString(36).padStart(4, '0');

    let t0 = performance.now();
    const corpus = loadCorpusManifests();
    const shapes = enrichShapes(corpus.slice(0, o.shapes ?? corpus.length), new Date(start));
    console.log(`engine: ${shapes.length} distinct manifests enriched in ${ms(t0)}`);

    t0 = performance.now();
    const months = await ensureSeedMonths(db.pool, new Date(start), new Date(now));
    const plan = planAssets(o, shapes, start, end, rnd, tag);
    console.log(`plan: ${o.assets} assets, ${months} month partitions created, in ${ms(t0)}`);

    const events: EventRef[] = [];
    function* signals(): Generator<SeedRow<'signals'>> {
      for (const i of plan.order) {
        const at = plan.time[i]!;
        const a = plan.assets[plan.owner[i]!]!;
        const entry = shapes[a.shape]!.entry;
        const k = a.seen++;
        const org = k === 0 ? a.orgs[0]! : a.orgs[Math.floor(rnd() * a.orgs.length)]!;
        const version = `1.${Math.floor(k / 3)}.${k % 3}`;
        const body = {
          fingerprint: a.fingerprint,
          asset_type: entry.asset_type,
          name: a.name,
          version,
          source_url: `https://github.com/${entry.repo}`,
          raw_manifest: entry.manifest,
          metadata: { collector: 'seed', host: `host-${org}-${k % 7}` },
        };
        // observed_at and org_id are not part of the digest (ingest-rows.ts)
        const digest = contentDigest({ ...body, org_id: orgId(org), observed_at: 0 });
        const id = newId(ID_PREFIXES.signal, at);
        if (k === 0)
          events.push({ id: newId(ID_PREFIXES.event, at), type: 'asset.created', asset: plan.owner[i]!, bom: -1, at });
        const v = a.bomAt.indexOf(k);
        if (v >= 0) {
          a.bomIds.push(newId(ID_PREFIXES.aibom, at + 1000));
          a.bomTimes.push(at + 1000);
          events.push({
            id: newId(ID_PREFIXES.event, at + 1000),
            type: 'asset.enriched',
            asset: plan.owner[i]!,
            bom: v,
            at: at + 1000,
          });
        }
        a.lastSeen = at;
        a.lastSignalId = id;
        a.lastDigest = digest;
        a.lastVersion = version;
        const ob = a.perOrg.get(org);
        if (ob) Object.assign(ob, { count: ob.count + 1, last: at, signalId: id, digest, version });
        else a.perOrg.set(org, { count: 1, first: at, last: at, signalId: id, digest, version });
        yield {
          ...body,
          id,
          org_id: orgId(org),
          livemode: true,
          observed_at: new Date(at - 5000),
          content_digest: digest,
          request_id: newId(ID_PREFIXES.request, at),
          created: new Date(at),
        };
      }
    }
    const timings: Array<{ table: string; rows: number; s: number }> = [];
    const copy = async <T extends Parameters<typeof copySeedRows>[1]>(table: T, rows: Iterable<SeedRow<T>>) => {
      const t = performance.now();
      const n = await copySeedRows(db.pool, table, rows);
      const s = (performance.now() - t) / 1000;
      timings.push({ table, rows: n, s });
      console.log(`${table}: ${n} rows in ${s.toFixed(1)} s (${Math.round(n / s)} rows/s)`);
    };
    await copy('signals', signals());

    const { assets } = plan;
    const enrichedAt = (a: AssetState) => new Date(Math.max(a.lastSeen, a.bomTimes.at(-1)!) + 2000);
    const resultOf = (a: AssetState, v: number) => shapes[(a.shape + a.bomIds.length - 1 - v) % shapes.length]!.result;
    const assetRow = (a: AssetState): SeedRow<'assets'> => {
      const { result } = shapes[a.shape]!;
      const entry = shapes[a.shape]!.entry;
      const at = enrichedAt(a);
      return {
        livemode: true,
        fingerprint: a.fingerprint,
        asset_type: entry.asset_type,
        name: a.name,
        normalized_name: normalizeAssetName(a.name) || null,
        publisher: result.publisher,
        version: a.lastVersion,
        ecosystem: result.ecosystem,
        source_url: `https://github.com/${entry.repo}`,
        enrichment_status: 'enriched',
        intrinsic_risk_score: result.intrinsic_risk_score,
        intrinsic_risk_severity: result.intrinsic_risk_severity,
        publisher_trust: result.publisher_trust,
        benchmark_summary: result.benchmark_summary,
        score_breakdown: result.score_breakdown,
        current_aibom_id: a.bomIds.at(-1)!,
        latest_signal_id: a.lastSignalId,
        latest_digest: a.lastDigest,
        enriched_digest: a.lastDigest,
        signal_count: a.signals,
        first_seen: new Date(a.firstSeen),
        last_seen: new Date(a.lastSeen),
        enriched_at: at,
        created: new Date(a.firstSeen),
        updated: at,
      };
    };
    await copy('assets', assets.map(assetRow));
    await copy(
      'asset_orgs',
      assets.flatMap((a) =>
        [...a.perOrg].map(([org, ob]) => ({
          livemode: true,
          fingerprint: a.fingerprint,
          org_id: orgId(org),
          signal_count: ob.count,
          first_seen: new Date(ob.first),
          last_seen: new Date(ob.last),
          latest_signal_id: ob.signalId,
          latest_digest: ob.digest,
          name: a.name,
          version: ob.version,
          source_url: `https://github.com/${shapes[a.shape]!.entry.repo}`,
        })),
      ),
    );
    function* findings(): Generator<SeedRow<'findings'>> {
      for (const a of assets) {
        const created = enrichedAt(a);
        for (const f of shapes[a.shape]!.result.findings)
          yield {
            ...findingRow(f),
            livemode: true,
            fingerprint: a.fingerprint,
            enrichment_digest: a.lastDigest,
            created,
          };
      }
    }
    function* aiboms(): Generator<SeedRow<'aiboms'>> {
      for (const a of assets)
        for (let v = 0; v < a.bomIds.length; v++) {
          const { aibom } = resultOf(a, v);
          yield {
            id: a.bomIds[v]!,
            livemode: true,
            fingerprint: a.fingerprint,
            bom_version: v + 1,
            content_hash: aibom.content_hash,
            spdx_version: aibom.spdx_version,
            spdx: aibom.spdx,
            components: aibom.components,
            lineage: aibom.lineage,
            cyclonedx: aibom.cyclonedx,
            created: new Date(a.bomTimes[v]!),
          };
        }
    }
    function* history(): Generator<SeedRow<'asset_history'>> {
      for (const a of assets)
        for (let v = 0; v < a.bomIds.length; v++) {
          const r = resultOf(a, v);
          const prev = v > 0 ? resultOf(a, v - 1) : null;
          yield {
            id: newId(ID_PREFIXES.assetHistory),
            livemode: true,
            fingerprint: a.fingerprint,
            enrichment_digest: a.lastDigest,
            intrinsic_risk_score: r.intrinsic_risk_score,
            intrinsic_risk_severity: r.intrinsic_risk_severity,
            previous_risk_score: prev?.intrinsic_risk_score ?? null,
            previous_risk_severity: prev?.intrinsic_risk_severity ?? null,
            bom_version: v + 1,
            findings: findingSnapshot(r.findings),
            findings_added: [],
            findings_removed: [],
            findings_changed: [],
            created: new Date(a.bomTimes[v]!),
          };
        }
    }
    function* eventRows(): Generator<SeedRow<'events'>> {
      for (const e of events) {
        const a = assets[e.asset]!;
        const { entry, result } = shapes[a.shape]!;
        const data =
          e.type === 'asset.created'
            ? {
                object: renderAsset(
                  newAssetRow(
                    {
                      livemode: true,
                      fingerprint: a.fingerprint,
                      asset_type: entry.asset_type,
                      name: a.name,
                      version: '1.0.0',
                      count: 1,
                      first_seen: new Date(a.firstSeen),
                      last_seen: new Date(a.firstSeen),
                    },
                    new Date(e.at),
                  ).row,
                ),
              }
            : {
                object: {
                  object: 'asset',
                  fingerprint: a.fingerprint,
                  asset_type: entry.asset_type,
                  enrichment_status: 'enriched',
                  intrinsic_risk_score: resultOf(a, e.bom).intrinsic_risk_score,
                  intrinsic_risk_severity: resultOf(a, e.bom).intrinsic_risk_severity,
                  publisher: result.publisher,
                  aibom: a.bomIds[e.bom]!,
                  bom_version: e.bom + 1,
                  enriched_at: Math.floor(e.at / 1000),
                } satisfies EventObject<'asset.enriched'>,
              };
        yield {
          id: e.id,
          type: e.type,
          livemode: true,
          org_id: null,
          fingerprint: a.fingerprint,
          data,
          created: new Date(e.at),
        };
      }
    }
    await copy('findings', findings());
    await copy('aiboms', aiboms());
    await copy('asset_history', history());
    await copy('events', eventRows());

    t0 = performance.now();
    const orgIds = Array.from({ length: o.orgs }, (_, i) => orgId(i));
    await db.prisma.tenant.createMany({
      data: orgIds.map((org_id) => ({
        id: newId(ID_PREFIXES.tenant),
        name: `Seed ${org_id}`,
        admin_email: `${org_id}@example.invalid`,
        org_id,
      })),
      skipDuplicates: true,
    });
    const keys: Array<{ org_id: string; key: string }> = [];
    for (const org_id of orgIds)
      keys.push({
        org_id,
        key: (await mintApiKey(db.prisma, { org_id, scopes: [...SCOPES], livemode: true, name: 'seed:scale' })).key,
      });
    // the keys are secrets: written only where asked, readable by the owner only, never printed
    if (o.keysOut) writeFileSync(o.keysOut, JSON.stringify(keys, null, 2), { mode: 0o600 });
    console.log(`orgs: ${o.orgs} tenants and live API keys in ${ms(t0)}${o.keysOut ? ` (keys in ${o.keysOut})` : ''}`);

    t0 = performance.now();
    await analyzeSeeded(db.pool);
    console.log(`analyze: ${ms(t0)}`);
    const rows = timings.reduce((s, t) => s + t.rows, 0);
    const total = (performance.now() - started) / 1000;
    console.log(`total: ${rows} rows in ${total.toFixed(1)} s (${Math.round(rows / total)} rows/s overall)`);
    for (const { table, bytes } of await seededSizes(db.pool))
      console.log(`size ${table}: ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  } finally {
    await db.close();
  }
}

const ms = (t0: number) => `${Math.round(performance.now() - t0)} ms`;

main().catch((err: unknown) => {
  console.error(`seed:scale: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
