// Retries, Idempotency-Key and error parsing of the SDK's transport, against scripted local HTTP servers (the
// real APIs do not yet answer 429, and 5xx/409-in-flight answers cannot be provoked on demand).
import {
  ApiServerError,
  ConflictError,
  createAdminClient,
  createPublicClient,
  InvalidRequestError,
  RateLimitError,
  RiskApiError,
  RiskConnectionError,
  type RetryInfo,
} from '../src';
import { parseRetryAfterSeconds } from '../src/errors';
import { closedPort, envelope, startScriptedServer, type Listening, type ScriptedAnswer } from './servers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const signalBody = {
  fingerprint: 'hf:acme/llama-3-8b-lora',
  asset_type: 'model' as const,
  org_id: 'org_acme',
  observed_at: 1_795_000_000,
};
const accepted = { id: 'sig_1', object: 'signal', enrichment: { status: 'queued', reason: null } };

const servers: Listening[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function scripted(script: ScriptedAnswer[]) {
  const server = await startScriptedServer(script);
  servers.push(server);
  const retries: RetryInfo[] = [];
  const client = createPublicClient({
    baseUrl: server.url,
    apiKey: 'rk_test_scripted',
    baseDelayMs: 20,
    maxDelayMs: 200,
    onRetry: (info) => retries.push(info),
  });
  return { server, client, retries };
}

describe('public client transport', () => {
  test('sends a UUID Idempotency-Key on every POST, none on GET, and the API key as a bearer token', async () => {
    const { server, client } = await scripted([{ status: 202, body: accepted }]);
    await client.post('/v1/signals', { body: signalBody });
    await client.post('/v1/signals', { body: signalBody });
    await client.get('/v1/signals/{signal_id}', { params: { path: { signal_id: 'sig_1' } } });
    const [first, second, read] = server.received;
    expect(first!.headers['idempotency-key']).toMatch(UUID);
    expect(second!.headers['idempotency-key']).toMatch(UUID);
    expect(second!.headers['idempotency-key']).not.toBe(first!.headers['idempotency-key']);
    expect(read!.headers['idempotency-key']).toBeUndefined();
    expect(first!.headers.authorization).toBe('Bearer rk_test_scripted');
    expect(JSON.parse(first!.body)).toEqual(signalBody);
  });

  test('keeps an Idempotency-Key the caller chose', async () => {
    const { server, client } = await scripted([{ status: 202, body: accepted }]);
    const key = '0b6f3c1e-8a8e-4c34-9a55-3f6f6f0c2d11';
    await client.post('/v1/signals', { body: signalBody, params: { header: { 'Idempotency-Key': key } } });
    expect(server.received[0]!.headers['idempotency-key']).toBe(key);
  });

  test('429: waits the Retry-After seconds, then retries with the same key and body', async () => {
    const { server, client, retries } = await scripted([
      { status: 429, headers: { 'retry-after': '1' }, body: envelope('rate_limit_error', 'rate_limited') },
      { status: 202, body: accepted },
    ]);
    const started = Date.now();
    expect(await client.post('/v1/signals', { body: signalBody })).toEqual(accepted);
    const [refused, retried] = server.received;
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(retried!.headers['idempotency-key']).toBe(refused!.headers['idempotency-key']);
    expect(retried!.body).toBe(refused!.body);
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, reason: 'rate_limited', status: 429, delayMs: 1000 }),
    ]);
  });

  test('429 with a Retry-After HTTP date is honoured too', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfterSeconds('Mon, 23 Nov 2026 12:00:02 GMT', now)).toBe(2);
    expect(parseRetryAfterSeconds('3', now)).toBe(3);
    expect(parseRetryAfterSeconds('soon', now)).toBeNull();
    expect(parseRetryAfterSeconds(null, now)).toBeNull();
  });

  test('429 asking for longer than maxRetryAfterMs is returned at once as a RateLimitError', async () => {
    const { server, client } = await scripted([
      { status: 429, headers: { 'retry-after': '120' }, body: envelope('rate_limit_error', 'rate_limited') },
    ]);
    const err = await client.post('/v1/signals', { body: signalBody }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited', retry_after: 120 });
    expect(server.received).toHaveLength(1);
  });

  test('409 idempotency_key_in_use and 5xx are retried with jittered backoff, always with the same key', async () => {
    const { server, client, retries } = await scripted([
      { status: 409, body: envelope('conflict_error', 'idempotency_key_in_use') },
      { status: 503, body: envelope('api_error', 'service_unavailable') },
      { status: 500, body: envelope('api_error', 'internal_error') },
      { status: 202, body: accepted },
    ]);
    expect(await client.post('/v1/signals', { body: signalBody })).toEqual(accepted);
    expect(server.received).toHaveLength(4);
    expect(new Set(server.received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(retries.map((r) => r.reason)).toEqual(['idempotency_key_in_use', 'server_error', 'server_error']);
    // step n waits between half and all of min(200, 20·2^(n-1)) ms
    retries.forEach((r, i) => {
      const step = Math.min(200, 20 * 2 ** i);
      expect(r.delayMs).toBeGreaterThanOrEqual(step / 2);
      expect(r.delayMs).toBeLessThanOrEqual(step);
    });
  });

  test('attempts are bounded: the last 5xx answer is thrown as a typed error', async () => {
    const { server, client } = await scripted([{ status: 500, body: envelope('api_error', 'internal_error') }]);
    const err = await client.post('/v1/signals', { body: signalBody }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err).toMatchObject({ status: 500, type: 'api_error', code: 'internal_error' });
    expect(server.received).toHaveLength(4); // maxAttempts defaults to 4
  });

  test('other errors are not retried and carry type, code, param and request_id', async () => {
    const { server, client } = await scripted([
      {
        status: 400,
        body: envelope('invalid_request_error', 'parameter_invalid', { param: 'observed_at', request_id: 'req_abc' }),
      },
    ]);
    const err = await client.post('/v1/signals', { body: signalBody }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toBeInstanceOf(RiskApiError);
    expect(err).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'observed_at',
      request_id: 'req_abc',
      message: 'parameter_invalid (scripted)',
    });
    expect(server.received).toHaveLength(1);
  });

  test('a 409 other than idempotency_key_in_use is not retried', async () => {
    const { server, client } = await scripted([{ status: 409, body: envelope('conflict_error', 'version_conflict') }]);
    await expect(client.post('/v1/signals', { body: signalBody })).rejects.toBeInstanceOf(ConflictError);
    expect(server.received).toHaveLength(1);
  });

  test('an answer that is not the envelope (a proxy page) is still a typed error, by status', async () => {
    const { server } = await scripted([{ status: 502, body: '<html>Bad gateway</html>' }]);
    const err = await createPublicClient({ baseUrl: server.url, apiKey: 'rk_test_scripted', maxAttempts: 1 })
      .get('/v1/signals/{signal_id}', { params: { path: { signal_id: 'sig_1' } } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiServerError);
    expect(err).toMatchObject({ status: 502, code: 'unexpected_response', request_id: 'req_scripted1' });
  });

  test('no server: RiskConnectionError after the bounded attempts', async () => {
    const retries: RetryInfo[] = [];
    const client = createPublicClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: 'rk_test_x',
      maxAttempts: 3,
      baseDelayMs: 10,
      onRetry: (r) => retries.push(r),
    });
    const err = await client.post('/v1/signals', { body: signalBody }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RiskConnectionError);
    expect(err).toMatchObject({ attempts: 3 });
    expect(retries.map((r) => r.reason)).toEqual(['network_error', 'network_error']);
    expect(new Set(retries.map((r) => r.idempotencyKey)).size).toBe(1);
  });
});

describe('admin client transport (the admin API has no Idempotency-Key)', () => {
  test('a POST answered 5xx is not repeated, a GET is', async () => {
    const server = await startScriptedServer([
      { status: 503, body: envelope('api_error', 'service_unavailable') },
      { status: 503, body: envelope('api_error', 'service_unavailable') },
      { status: 200, body: { object: 'list', data: [], has_more: false, url: '/tenants/v1', next_cursor: null } },
    ]);
    servers.push(server);
    const admin = createAdminClient({ baseUrl: server.url, token: 'admin-token', baseDelayMs: 10 });
    await expect(
      admin.post('/tenants/v1/register', { body: { name: 'acme', admin_email: 'secops@acme.example' } }),
    ).rejects.toBeInstanceOf(ApiServerError);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]!.headers['idempotency-key']).toBeUndefined();
    await expect(admin.get('/tenants/v1')).resolves.toMatchObject({ object: 'list' });
    expect(server.received).toHaveLength(3);
  });

  test('a POST refused with 429 is retried (refused before any work)', async () => {
    const server = await startScriptedServer([
      { status: 429, headers: { 'retry-after': '0' }, body: envelope('rate_limit_error', 'rate_limited') },
      { status: 201, body: { id: 'tnt_1' } },
    ]);
    servers.push(server);
    const admin = createAdminClient({ baseUrl: server.url, token: 'admin-token' });
    await admin.post('/tenants/v1/register', { body: { name: 'acme', admin_email: 'secops@acme.example' } });
    expect(server.received).toHaveLength(2);
  });
});
