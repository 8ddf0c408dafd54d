import request from 'supertest';
import { createHarness, enrichLikeWorker, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('assets-get');
});
afterAll(() => h.close());

describe('GET /v1/assets/{fingerprint}', () => {
  test.each([
    ['slash', 'huggingface.co/meta-llama/Llama-3.1-8B'],
    ['colon', 'sha256:0b3f9e1c'],
    ['at sign', 'npm:@modelcontextprotocol/server-filesystem@2025.7.1'],
    ['spaces and unicode', 'model name ü/x'],
  ])('retrieves a fingerprint holding a %s when URL-encoded', async (_label, fingerprint) => {
    const res = await postSignal(h, signalBody(h.orgId, { fingerprint }));
    expect(res.status).toBe(202);
    const got = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(fingerprint)}`)
      .set(auth());
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      object: 'asset',
      fingerprint,
      enrichment_status: 'pending',
      findings: null,
      aibom: null,
      signal_count: 1,
    });
  });

  test('a missing asset is 404 resource_missing naming fingerprint', async () => {
    const res = await request(h.app).get('/v1/assets/nope%2Fnope').set(auth());
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing', param: 'fingerprint' });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });

  test('expands findings and aibom of an enriched asset; unexpanded aibom is the id', async () => {
    const body = signalBody(h.orgId);
    await postSignal(h, body);
    await enrichLikeWorker(h, body.fingerprint as string);
    const plain = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}`)
      .set(auth());
    expect(plain.status).toBe(200);
    expect(plain.body.enrichment_status).toBe('enriched');
    expect(plain.body.findings).toBeNull();
    expect(plain.body.aibom).toMatch(/^bom_/);
    const expanded = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}?expand[]=findings&expand[]=aibom`)
      .set(auth());
    expect(expanded.status).toBe(200);
    expect(Array.isArray(expanded.body.findings)).toBe(true);
    expect(expanded.body.aibom).toMatchObject({ object: 'aibom', id: plain.body.aibom, bom_version: 1 });
  });

  test('an unsupported expand value is 400 naming expand', async () => {
    const body = signalBody(h.orgId);
    await postSignal(h, body);
    const res = await request(h.app)
      .get(`/v1/assets/${encodeURIComponent(body.fingerprint as string)}?expand[]=threats`)
      .set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'expand' });
  });
});
