import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listenWithLimits } from '@risk/common/server';
import request from 'supertest';
import { MAX_HEADER_SIZE } from '../src/app';
import { createHarness, idem, type Harness } from './harness';

// Inputs that once reached Postgres or Node's HTTP parser and came back as a 500 or a bare status:
// a NUL character (text and jsonb cannot store it), malformed percent-encoding in a path parameter,
// and a request line over the header limit. Each must be a 4xx in the error envelope and write nothing.
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('hostile');
});
afterAll(() => h.close());

async function rowCounts() {
  const { rows } = await h.ctx.db.pool.query(
    `SELECT (SELECT count(*) FROM signals)::int AS signals, (SELECT count(*) FROM threats)::int AS threats,
            (SELECT count(*) FROM webhook_endpoints)::int AS webhooks, (SELECT count(*) FROM idempotency_keys)::int AS keys`,
  );
  return rows[0];
}

const signal = (extra: Record<string, unknown> = {}) => ({
  fingerprint: 'hostile:one',
  asset_type: 'model',
  org_id: h.orgId,
  observed_at: Math.floor(Date.now() / 1000) - 10,
  ...extra,
});

describe('a NUL character anywhere is a 400 naming the field, never a 500', () => {
  test.each([
    ['/v1/signals', () => signal({ metadata: { note: 'a\u0000b' } }), 'metadata.note'],
    ['/v1/signals', () => signal({ raw_manifest: '{"name":"x"}\u0000' }), 'raw_manifest'],
    [
      '/v1/signals/bulk',
      () => ({ signals: [signal(), signal({ fingerprint: 'hostile:three', name: 'n\u0000' })] }),
      'signals[1].name',
    ],
    [
      '/v1/signals/bulk',
      () => ({ signals: [signal(), signal({ fingerprint: 'hostile:two', metadata: { tags: ['x', '\u0000'] } })] }),
      'signals[1].metadata.tags[1]',
    ],
    ['/v1/threats', () => ({ category: 'malicious_model', title: 'a\u0000b', severity: 'high' }), 'title'],
    [
      '/v1/threats',
      () => ({ category: 'malicious_model', title: 'ok', severity: 'high', metadata: { 'k\u0000': 1 } }),
      'metadata.k\u0000',
    ],
    [
      '/v1/webhooks',
      () => ({ url: 'https://hooks.example.com/x', events: ['*'], description: '\u0000' }),
      'description',
    ],
  ])('POST %s', async (path, body, param) => {
    const before = await rowCounts();
    const res = await request(h.app).post(path).set(auth()).set('Idempotency-Key', idem()).send(body());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    expect(await rowCounts()).toEqual(before);
  });

  test.each([
    '/v1/signals/sig%00',
    '/v1/threats/thr%00',
    '/v1/webhooks/we%00',
    '/v1/events/evt%00',
    '/v1/threats?starting_after=%00',
    '/v1/webhooks?ending_before=%00',
    '/v1/events?starting_after=thr%00',
    '/v1/assets?starting_after=%00',
  ])('GET %s', async (path) => {
    const res = await request(h.app).get(path).set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
    expect(res.body.error.param).toBeTruthy();
  });
});

test.each(['/v1/assets/%E0%A4%A', '/v1/signals/%zz', '/v1/threats/%'])(
  'malformed percent-encoding in %s is a 400 in the envelope',
  async (path) => {
    const res = await request(h.app).get(path).set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  },
);

describe('the header limit', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = await listenWithLimits(h.app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => closeServer(server, { deadlineMs: 1000 }));

  test('500 full name keys (name, version, ecosystem and a 64-character fallback fingerprint) fit', async () => {
    const params = new URLSearchParams();
    for (let i = 0; i < 500; i++) {
      params.append('lookup_name', `some-organisation/a-fairly-long-model-name-${i}`);
      params.append('lookup_version', `1.${i}.0-rc.1`);
      params.append('lookup_ecosystem', 'huggingface');
      params.append('lookup_fingerprint', `sha256:${i.toString(16).padStart(64, '0')}`);
    }
    const url = `${base}/v1/assets/lookup?${params}`;
    expect(url.length).toBeGreaterThan(64 * 1024);
    const res = await fetch(url, { headers: auth() });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[] };
    expect(body.data).toHaveLength(500);
  });

  test('a request line over the limit is 431 in the error envelope, with a request id', async () => {
    const res = await fetch(`${base}/v1/assets/lookup?fingerprints=${'x'.repeat(MAX_HEADER_SIZE + 10)}`, {
      headers: auth(),
    });
    expect(res.status).toBe(431);
    const body = (await res.json()) as { error: Record<string, string> };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
    expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
  });
});
