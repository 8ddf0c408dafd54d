import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listenWithLimits } from '@risk/common/server';
import request from 'supertest';
import { MAX_HEADER_SIZE } from '../src/app';
import { createHarness, enrichLikeWorker, idem, nowSeconds, projected, type Harness } from './harness';

let h: Harness;
let server: Server;
let baseUrl: string;
let queries = 0;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
const fp64 = (i: number) => i.toString(16).padStart(64, '0');

beforeAll(async () => {
  // count every statement sent on the app's pool (attached before the first connection opens)
  h = await createHarness('lookup', {
    // the query-count tests expand aibom over all 500 keys: raise the expand bound (default 100,
    // docs/security.md "Rate limits and caps"; rate-limits-caps.test.ts tests the bound itself)
    env: { EXPAND_AIBOM_MAX_ITEMS: '500' },
    beforeFirstQuery: (ctx) =>
      ctx.db.pool.on('connect', (client) => {
        const original = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          queries++;
          return original(...args);
        };
      }),
  });
  // 400 assets with 64-character fingerprints; 3 named ones for the name rules
  const signals = Array.from({ length: 400 }, (_, i) => ({
    fingerprint: fp64(i),
    asset_type: 'package',
    org_id: h.orgId,
    observed_at: nowSeconds() - 5,
  }));
  const named = [
    { fingerprint: 'hf:meta-llama/Llama_3.1-8B', asset_type: 'model', name: 'meta-llama/Llama_3.1-8B', version: '1.0' },
    { fingerprint: 'hf:other/llama-3-1-8b@2', asset_type: 'model', name: 'other/llama-3-1-8b', version: '2.0' },
    {
      fingerprint: 'npm:@modelcontextprotocol/server-filesystem',
      asset_type: 'mcp_server',
      name: '@modelcontextprotocol/server-filesystem',
      version: '2025.7.1',
    },
  ].map((s) => ({ ...s, org_id: h.orgId, observed_at: nowSeconds() - 5 }));
  for (const chunk of [signals.slice(0, 200), signals.slice(200), named]) {
    const res = await request(h.app)
      .post('/v1/signals/bulk')
      .set(auth())
      .set('Idempotency-Key', idem())
      .send({ signals: chunk });
    expect(res.status).toBe(202);
  }
  await projected(h); // the bulk's assets follow its 202 (docs/reliability.md "Asset projection")
  await enrichLikeWorker(h, 'npm:@modelcontextprotocol/server-filesystem', { ecosystem: 'npm' });
  await h.ctx.db.prisma.asset.update({
    where: { livemode_fingerprint: { livemode: true, fingerprint: 'hf:meta-llama/Llama_3.1-8B' } },
    data: { ecosystem: 'huggingface' },
  });
  server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeServer(server, { deadlineMs: 1000 });
  await h.close();
});

// through the listening server (raised header limit), so long look-up URLs work everywhere below
const lookup = (qs: string) => request(baseUrl).get(`/v1/assets/lookup?${qs}`).set(auth());

test('fingerprints match exactly, in request order, with none for unknown ones', async () => {
  const res = await lookup(`fingerprints=${fp64(3)}&fingerprints=unknown&fingerprints=${fp64(1)}`);
  expect(res.status).toBe(200);
  expect(res.body.object).toBe('asset_lookup');
  expect(
    res.body.data.map((r: { match: string; asset: { fingerprint: string } | null }) => [
      r.match,
      r.asset?.fingerprint ?? null,
    ]),
  ).toEqual([
    ['exact', fp64(3)],
    ['none', null],
    ['exact', fp64(1)],
  ]);
});

test('name keys match after normalisation (case, _ . - folding, org/ prefix), with version and ecosystem', async () => {
  const res = await lookup(
    'lookup_name=LLAMA-3-1-8B&lookup_version=1.0&lookup_ecosystem=HuggingFace' +
      '&lookup_name=server_filesystem&lookup_version=&lookup_ecosystem=npm' +
      '&lookup_name=llama.3.1.8b&lookup_version=2.0&lookup_ecosystem=',
  );
  expect(res.status).toBe(200);
  expect(
    res.body.data.map((r: { match: string; asset: { fingerprint: string } | null }) => [r.match, r.asset?.fingerprint]),
  ).toEqual([
    ['exact', 'hf:meta-llama/Llama_3.1-8B'],
    ['exact', 'npm:@modelcontextprotocol/server-filesystem'],
    ['exact', 'hf:other/llama-3-1-8b@2'],
  ]);
  expect(res.body.data[0].key).toEqual({
    fingerprint: null,
    name: 'LLAMA-3-1-8B',
    version: '1.0',
    ecosystem: 'HuggingFace',
  });
});

test('a name key that misses falls back to lookup_fingerprint', async () => {
  const res = await lookup(`lookup_name=not-there&lookup_version=1&lookup_fingerprint=${fp64(9)}`);
  expect(res.body.data[0]).toMatchObject({ match: 'fingerprint', asset: { fingerprint: fp64(9) } });
  const miss = await lookup('lookup_name=not-there&lookup_version=1&lookup_fingerprint=nope');
  expect(miss.body.data[0]).toMatchObject({ match: 'none', asset: null });
});

test('a name alone can match flexibly; include_candidates returns up to 5 ranked candidates with scores', async () => {
  const res = await lookup('lookup_name=server-filesystems&include_candidates=true');
  expect(res.status).toBe(200);
  const [r] = res.body.data;
  expect(r.match).toBe('flexible');
  expect(r.asset.fingerprint).toBe('npm:@modelcontextprotocol/server-filesystem');
  expect(r.candidates.length).toBeGreaterThan(0);
  expect(r.candidates.length).toBeLessThanOrEqual(5);
  const scores = r.candidates.map((c: { similarity: number }) => c.similarity);
  expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  expect(scores[0]).toBeGreaterThan(0.5);
  expect(scores[0]).toBeLessThanOrEqual(1);
  const ranked = await lookup('lookup_name=llama-3-1-8b&include_candidates=true');
  expect(ranked.body.data[0].match).toBe('exact');
  expect(
    ranked.body.data[0].candidates.map((c: { asset: { fingerprint: string } }) => c.asset.fingerprint).sort(),
  ).toEqual(['hf:meta-llama/Llama_3.1-8B', 'hf:other/llama-3-1-8b@2'].sort());
  // without include_candidates there is no candidates field, and a name with version never matches flexibly
  const strict = await lookup('lookup_name=server-filesystems&lookup_version=2025.7.1');
  expect(strict.body.data[0]).toEqual(expect.objectContaining({ match: 'none', asset: null }));
  expect(strict.body.data[0].candidates).toBeUndefined();
});

test('expand[]=findings and expand[]=aibom expand matched assets', async () => {
  const res = await lookup(
    'fingerprints=npm%3A%40modelcontextprotocol%2Fserver-filesystem&expand[]=findings&expand[]=aibom',
  );
  expect(res.status).toBe(200);
  expect(Array.isArray(res.body.data[0].asset.findings)).toBe(true);
  expect(res.body.data[0].asset.aibom).toMatchObject({ object: 'aibom' });
  const bad = await lookup(`fingerprints=${fp64(1)}&expand[]=threats`);
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expand' });
});

test.each([
  ['no keys at all', '', 'missing_required_param', 'fingerprints'],
  ['lookup_version without lookup_name', 'lookup_version=1', 'missing_required_param', 'lookup_name'],
  [
    'lookup_ecosystem without lookup_name',
    `fingerprints=${fp64(1)}&lookup_ecosystem=npm`,
    'missing_required_param',
    'lookup_name',
  ],
  ['lookup_fingerprint without lookup_name', 'lookup_fingerprint=x', 'missing_required_param', 'lookup_name'],
  ['fewer versions than names', 'lookup_name=a&lookup_name=b&lookup_version=1', 'parameter_invalid', 'lookup_version'],
  [
    'more ecosystems than names',
    'lookup_name=a&lookup_ecosystem=npm&lookup_ecosystem=pypi',
    'parameter_invalid',
    'lookup_ecosystem',
  ],
  [
    'mismatched fallback fingerprints',
    'lookup_name=a&lookup_name=b&lookup_fingerprint=x',
    'parameter_invalid',
    'lookup_fingerprint',
  ],
  ['an empty fingerprint', 'fingerprints=', 'parameter_invalid', 'fingerprints[0]'],
  ['an unknown parameter', 'fingerprint=x', 'parameter_unknown', 'fingerprint'],
  [
    'include_candidates not a boolean',
    'lookup_name=a&include_candidates=yes',
    'parameter_invalid',
    'include_candidates',
  ],
  // control characters (a NUL would fail the Postgres query: a 500) are refused in every look-up string
  ['a NUL in a name', 'lookup_name=a%00b', 'parameter_invalid', 'lookup_name[0]'],
  [
    'a control character in a version',
    'lookup_name=a&lookup_name=b&lookup_version=&lookup_version=1%0A',
    'parameter_invalid',
    'lookup_version[1]',
  ],
  ['a NUL in an ecosystem', 'lookup_name=a&lookup_ecosystem=%00', 'parameter_invalid', 'lookup_ecosystem[0]'],
  [
    'a NUL in a fallback fingerprint',
    'lookup_name=a&lookup_fingerprint=x%00',
    'parameter_invalid',
    'lookup_fingerprint[0]',
  ],
  ['a NUL in a fingerprint', `fingerprints=${fp64(1)}&fingerprints=%00`, 'parameter_invalid', 'fingerprints[1]'],
])('%s is 400', async (_label, qs, code, param) => {
  const res = await lookup(qs);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
});

test('more than 500 keys in all is 400', async () => {
  const qs = [
    ...Array.from({ length: 300 }, (_, i) => `fingerprints=${fp64(i)}`),
    ...Array.from({ length: 201 }, (_, i) => `lookup_name=n${i}`),
  ].join('&');
  const res = await lookup(qs);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'fingerprints' });
});

test('500 keys of 64-character fingerprints (a ~40 KB URL) work through a real server with the raised header limit', async () => {
  const fps = Array.from({ length: 500 }, (_, i) => fp64(i)); // 400 exist, 100 do not
  const url = `${baseUrl}/v1/assets/lookup?${fps.map((f) => `fingerprints=${f}`).join('&')}`;
  expect(url.length).toBeGreaterThan(38_000);
  const res = await fetch(url, { headers: auth() });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Array<{ match: string; key: { fingerprint: string } }> };
  expect(body.data).toHaveLength(500);
  expect(body.data.map((r) => r.key.fingerprint)).toEqual(fps);
  expect(body.data.filter((r) => r.match === 'exact')).toHaveLength(400);
  expect(body.data.slice(400).every((r) => r.match === 'none')).toBe(true);
});

test("the same URL is refused by a server with Node's default 16 KiB header limit (why the limit is raised)", async () => {
  const http = await import('node:http');
  const plain = http.createServer(h.app).listen(0, '127.0.0.1');
  await new Promise((r) => plain.once('listening', r));
  try {
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1/assets/lookup?${Array.from({ length: 500 }, (_, i) => `fingerprints=${fp64(i)}`).join('&')}`;
    const res = await fetch(url, { headers: auth() });
    expect(res.status).toBe(431);
  } finally {
    await closeServer(plain, { deadlineMs: 500 });
  }
});

test('250 fingerprints + 250 name keys with every option use as many queries as one key does', async () => {
  const oneKey = 'lookup_name=llama-3-1-8b&include_candidates=true&expand[]=findings&expand[]=aibom';
  queries = 0;
  expect((await lookup(oneKey)).status).toBe(200);
  const forOne = queries;
  const qs = [
    ...Array.from({ length: 250 }, (_, i) => `fingerprints=${fp64(i)}`),
    ...Array.from(
      { length: 250 },
      (_, i) =>
        `lookup_name=${i % 2 ? 'llama-3-1-8b' : `pkg-${i}`}&lookup_version=${i % 3 ? '' : '1.0'}&lookup_fingerprint=${fp64(i + 100)}`,
    ),
    'include_candidates=true&expand[]=findings&expand[]=aibom',
  ].join('&');
  queries = 0;
  const res = await lookup(qs);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(500);
  expect(queries).toBe(forOne);
  expect(queries).toBeLessThanOrEqual(8);
});

test('500 name keys with every lookup_* list (2,000 repeated values) keep their positions and match kinds', async () => {
  // key i: every 5th has a fallback fingerprint and a name that exists nowhere; the others alternate
  // between an exact name+version+ecosystem key and a name-alone key that matches nothing
  const keys = Array.from({ length: 500 }, (_, i) =>
    i % 5 === 0
      ? { name: `missing-${i}`, version: '', ecosystem: '', fallback: fp64(i) }
      : i % 2 === 0
        ? { name: 'LLAMA-3-1-8B', version: '1.0', ecosystem: 'huggingface', fallback: '' }
        : { name: `zq${i}xv`, version: '', ecosystem: '', fallback: '' },
  );
  const qs = keys
    .map(
      (k) =>
        `lookup_name=${k.name}&lookup_version=${k.version}&lookup_ecosystem=${k.ecosystem}&lookup_fingerprint=${k.fallback}`,
    )
    .join('&');
  expect(qs.length).toBeGreaterThan(40_000);
  const res = await lookup(qs);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(500);
  res.body.data.forEach(
    (r: { match: string; key: { name: string }; asset: { fingerprint: string } | null }, i: number) => {
      const k = keys[i]!;
      expect(r.key.name).toBe(k.name);
      if (k.fallback)
        expect([i, r.match, r.asset?.fingerprint]).toEqual([
          i,
          i < 400 ? 'fingerprint' : 'none',
          i < 400 ? k.fallback : undefined,
        ]);
      else if (k.version)
        expect([i, r.match, r.asset?.fingerprint]).toEqual([i, 'exact', 'hf:meta-llama/Llama_3.1-8B']);
      else expect([i, r.match, r.asset]).toEqual([i, 'none', null]);
    },
  );
});

test('a name alone with nothing similar is none; with include_candidates it gets an empty candidates list', async () => {
  const res = await lookup('lookup_name=qqqzzzxxx&include_candidates=true');
  expect(res.status).toBe(200);
  expect(res.body.data[0]).toEqual({
    object: 'lookup_result',
    key: { fingerprint: null, name: 'qqqzzzxxx', version: null, ecosystem: null },
    match: 'none',
    asset: null,
    candidates: [],
  });
});

test('results follow the URL order of fingerprints and name keys, interleaved, and a key may repeat', async () => {
  const res = await lookup(
    `lookup_name=server-filesystem&fingerprints=${fp64(2)}&lookup_name=llama-3-1-8b&fingerprints=${fp64(2)}`,
  );
  expect(res.status).toBe(200);
  expect(
    res.body.data.map((r: { match: string; key: { fingerprint: string | null; name: string | null } }) => [
      r.key.fingerprint ?? r.key.name,
      r.match,
    ]),
  ).toEqual([
    ['server-filesystem', 'exact'],
    [fp64(2), 'exact'],
    ['llama-3-1-8b', 'exact'],
    [fp64(2), 'exact'],
  ]);
  // bracketed and percent-encoded key names count as the same lists, in place
  const encoded = await lookup(`fingerprints%5B%5D=${fp64(2)}&lookup_name[]=llama-3-1-8b&fingerprints=${fp64(1)}`);
  expect(encoded.status).toBe(200);
  expect(
    encoded.body.data.map(
      (r: { key: { fingerprint: string | null; name: string | null } }) => r.key.fingerprint ?? r.key.name,
    ),
  ).toEqual([fp64(2), 'llama-3-1-8b', fp64(1)]);
});
