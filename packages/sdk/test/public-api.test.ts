// The SDK against the real public API: the express app from its factory (services/public-api/test/harness.ts)
// on an ephemeral port, with a scratch Postgres database and Redis prefix; deliveries signed by the worker's code.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { allowedHostsFor, OutboundGuard } from '@risk/common/outbound';
import { createHarness, type Harness } from '@risk/public-api/test/harness';
import { buildPublicOpenApiDocument } from '@risk/public-api';
import { createWebhookPayloadValidator, scaledByLoad } from '@risk/testing';
import { deliverWebhook } from '@risk/worker/src/jobs/webhook-delivery';
import { Webhook } from 'standardwebhooks';
import ts from 'typescript';
import {
  AuthenticationError,
  createPublicClient,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  verifyWebhook,
  WebhookVerificationError,
  type RetryInfo,
  type RiskClient,
  type PublicPaths,
  type WebhookEventOf,
} from '../src';
import { listen, startAnswerLosingProxy, type Listening } from './servers';

jest.setTimeout(scaledByLoad(60_000));

let h: Harness;
let api: Listening;
let risk: RiskClient<PublicPaths>;
let key: string;
const requestsTo: string[] = [];

beforeAll(async () => {
  h = await createHarness('sdkpublic');
  api = await listen(h.app);
  // test mode: webhook endpoints may then be plain http on 127.0.0.1 (the receiver below)
  key = await h.mintKey({ livemode: false });
  risk = createPublicClient({ baseUrl: api.url, apiKey: key });
  risk.raw.use({
    onRequest: ({ request }) => {
      requestsTo.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return undefined;
    },
  });
});
afterAll(async () => {
  await api.close();
  await h.close();
});

let seq = 0;
const signal = (over: Record<string, unknown> = {}) => ({
  fingerprint: `hf:sdk-test/model-${++seq}-${Date.now()}`,
  asset_type: 'model' as const,
  org_id: h.orgId,
  observed_at: Math.floor(Date.now() / 1000) - 60,
  name: `sdk-test/model-${seq}`,
  raw_manifest: '---\nlicense: apache-2.0\n---\n# a model card',
  ...over,
});

describe('signals and assets', () => {
  // the 8 assets the paging tests walk, in creation order (oldest first); other tests' assets are filtered out
  const fingerprints: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 8; i++) {
      const accepted = await risk.post('/v1/signals', { body: signal() });
      expect(accepted).toMatchObject({ object: 'signal', id: expect.stringMatching(/^sig_/) });
      fingerprints.push(accepted.fingerprint);
    }
  });

  test('a created signal reads back with its typed fields', async () => {
    const body = signal();
    const accepted = await risk.post('/v1/signals', { body });
    const read = await risk.get('/v1/signals/{signal_id}', { params: { path: { signal_id: accepted.id } } });
    expect(read).toMatchObject({
      id: accepted.id,
      fingerprint: body.fingerprint,
      asset_type: 'model',
      org_id: h.orgId,
    });
  });

  test('a bulk submit answers typed compact receipts in request order; each reads back in full by its id', async () => {
    const bodies = [signal(), signal({ asset_type: 'dataset' as const })];
    const batch = await risk.post('/v1/signals/bulk', { body: { signals: bodies } });
    expect(batch.object).toBe('signal_batch');
    expect(batch.data.map((r) => r.fingerprint)).toEqual(bodies.map((b) => b.fingerprint));
    // the receipt type has no echoed fields (compile-time) and the wire has none either
    // @ts-expect-error raw_manifest is not part of a SignalReceipt
    expect(batch.data[0]!.raw_manifest).toBeUndefined();
    const receipt = batch.data[1]!;
    expect(receipt).toEqual({
      id: expect.stringMatching(/^sig_/),
      object: 'signal',
      fingerprint: bodies[1]!.fingerprint,
      content_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      created: expect.any(Number),
      enrichment: { status: 'queued', reason: 'new_asset' },
    });
    const read = await risk.get('/v1/signals/{signal_id}', { params: { path: { signal_id: receipt.id } } });
    expect(read).toMatchObject({ id: receipt.id, asset_type: 'dataset', raw_manifest: bodies[1]!.raw_manifest });
  });

  test('list() pages forward through more than two pages, newest first', async () => {
    requestsTo.length = 0;
    const seen: string[] = [];
    for await (const asset of risk.list('/v1/assets', { params: { query: { limit: 3, asset_type: 'model' } } })) {
      if (fingerprints.includes(asset.fingerprint)) seen.push(asset.fingerprint);
    }
    expect(seen).toEqual([...fingerprints].reverse());
    const pages = requestsTo.filter((r) => r.startsWith('GET /v1/assets?'));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[1]).toContain('starting_after=');
  });

  test('list() with ending_before pages backward through more than two pages, oldest first', async () => {
    requestsTo.length = 0;
    const [oldest, ...newer] = fingerprints;
    const seen: string[] = [];
    for await (const asset of risk.list('/v1/assets', {
      params: { query: { limit: 3, asset_type: 'model', ending_before: oldest } },
    })) {
      if (fingerprints.includes(asset.fingerprint)) seen.push(asset.fingerprint);
      if (seen.length === newer.length) break; // stop at the newest of ours (the suite's other assets are newer)
    }
    expect(seen).toEqual(newer);
    const pages = requestsTo.filter((r) => r.startsWith('GET /v1/assets?'));
    expect(pages).toHaveLength(3);
    expect(pages.every((p) => p.includes('ending_before=') && !p.includes('starting_after='))).toBe(true);
  });

  test('breaking out of list() stops fetching pages', async () => {
    requestsTo.length = 0;
    for await (const asset of risk.list('/v1/assets', { params: { query: { limit: 2 } } })) {
      expect(asset.object).toBe('asset');
      break;
    }
    expect(requestsTo).toHaveLength(1);
  });
});

describe('idempotent retries against the real API', () => {
  test('a POST whose answer was lost is retried with the same key and applied once', async () => {
    const proxy = await startAnswerLosingProxy(api.port, 1);
    const retries: RetryInfo[] = [];
    const client = createPublicClient({
      baseUrl: proxy.url,
      apiKey: key,
      baseDelayMs: 50,
      onRetry: (r) => retries.push(r),
    });
    try {
      const body = signal();
      const { data, response } = await client.raw.POST('/v1/signals', { body });
      expect(retries[0]).toMatchObject({ attempt: 1, reason: 'network_error' });
      // the first attempt was stored; the retry (after a possible 409 while it was in flight) replays it
      expect(response.status).toBe(202);
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      const keys = proxy.requests.map((raw) => /^idempotency-key: (.+)$/im.exec(raw)?.[1]?.trim());
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toBe(retries[0]!.idempotencyKey);
      const stored = await h.ctx.db.prisma.signal.findMany({ where: { fingerprint: body.fingerprint } });
      expect(stored.map((s) => s.id)).toEqual([data!.id]);
    } finally {
      await proxy.close();
    }
  });
});

describe('typed errors from the real API', () => {
  test('400 carries type, code, param and the request id', async () => {
    const { fingerprint: _dropped, ...withoutFingerprint } = signal();
    const err = await risk
      .post('/v1/signals', { body: withoutFingerprint as ReturnType<typeof signal> })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'missing_required_param',
      param: 'fingerprint',
      request_id: expect.stringMatching(/^req_/),
    });
    const e = err as InvalidRequestError;
    expect(e.request_id).toBe(e.headers.get('x-request-id'));
  });

  test('403 org_mismatch names the param', async () => {
    const err = await risk.post('/v1/signals', { body: signal({ org_id: 'org_other' }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionError);
    expect(err).toMatchObject({ status: 403, code: 'org_mismatch', param: 'org_id' });
  });

  test('404 and 401 are their own classes', async () => {
    await expect(
      risk.get('/v1/signals/{signal_id}', { params: { path: { signal_id: 'sig_doesnotexist' } } }),
    ).rejects.toMatchObject({ constructor: NotFoundError, status: 404, code: 'resource_missing' });
    const anonymous = createPublicClient({ baseUrl: api.url, apiKey: 'rk_test_not_a_real_key' });
    await expect(anonymous.get('/v1/assets')).rejects.toMatchObject({
      constructor: AuthenticationError,
      type: 'authentication_error',
      code: 'api_key_invalid',
    });
  });
});

describe('webhook verification', () => {
  let receiver: { server: Server; url: string; received: Array<{ headers: IncomingHttpHeaders; body: string }> };

  beforeAll(async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
  });
  afterAll(async () => {
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  test('verifyWebhook accepts a delivery signed by the worker and rejects tampering, wrong secrets and old ones', async () => {
    const endpoint = await risk.post('/v1/webhooks', { body: { url: receiver.url, events: ['threat.created'] } });
    const secret = endpoint.secret!;
    const threat = await risk.post('/v1/threats', {
      body: { category: 'malicious_model', title: 'Backdoored LoRA (sdk test)', severity: 'high' },
    });
    // the worker's delivery job, as it runs in production (services/worker/src/jobs/webhook-delivery.ts)
    const delivery = await h.ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const outcome = await deliverWebhook(
      {
        prisma: h.ctx.db.prisma,
        config: h.ctx.config,
        producer: null,
        guard: new OutboundGuard(allowedHostsFor(h.ctx.config, 'webhook')),
      },
      { delivery_id: delivery.id, attempt: 1 },
    );
    expect(outcome).toMatchObject({ outcome: 'delivered' });
    const [got] = receiver.received;

    const event = verifyWebhook(got!.body, got!.headers, secret);
    expect(event).toMatchObject({ object: 'event', type: 'threat.created', livemode: false });
    // the payload type narrows by `type` (WebhookEventOf, from the document's webhooks section)
    if (event.type !== 'threat.created') throw new Error(`unexpected ${event.type}`);
    const created: WebhookEventOf<'threat.created'> = event;
    expect(created.data.object).toMatchObject({ id: threat.id, title: 'Backdoored LoRA (sdk test)' });
    // and the delivered body is what the document's webhooks section says it is
    expect(createWebhookPayloadValidator(buildPublicOpenApiDocument('http://127.0.0.1'))(got!.body)).toBeUndefined();
    // a Headers object (fetch-style frameworks) works the same
    const fetchHeaders = new Headers(Object.entries(got!.headers).map(([k, v]) => [k, String(v)]));
    expect(verifyWebhook(Buffer.from(got!.body), fetchHeaders, secret).id).toBe(event.id);

    expect(() => verifyWebhook(got!.body.replace('Backdoored', 'Harmless'), got!.headers, secret)).toThrow(
      WebhookVerificationError,
    );
    const otherSecret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect(() => verifyWebhook(got!.body, got!.headers, otherSecret)).toThrow(WebhookVerificationError);
    const { ['webhook-signature']: _sig, ...unsigned } = got!.headers;
    expect(() => verifyWebhook(got!.body, unsigned, secret)).toThrow(/missing webhook-signature/);
    // signed like the worker signs, but 10 minutes ago: a replayed capture
    const old = new Date(Date.now() - 10 * 60_000);
    const replayed = {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, old, got!.body),
    };
    expect(() => verifyWebhook(got!.body, replayed, secret)).toThrow(WebhookVerificationError);
  });
});

describe('the README', () => {
  test("the SDK example's five lines run against the API", async () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const example = /### SDK[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example?.trim().split('\n')).toHaveLength(5);
    // as written, with the import bound to this package and the base URL and key of the test server
    const body = ts.transpileModule(
      example!
        .replace("import { createPublicClient } from '@risk/sdk';", 'const { createPublicClient } = sdk;')
        .replace("'http://localhost:8080'", 'baseUrl')
        .replace('process.env.KEY!', 'apiKey'),
      { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None } },
    ).outputText;
    const printed: unknown[][] = [];
    const run = new Function('sdk', 'baseUrl', 'apiKey', 'console', `return (async () => {\n${body}\n})();`);
    const apiKey = await h.mintKey({ orgId: 'org_acme', livemode: false });
    await run({ createPublicClient }, api.url, apiKey, { log: (...args: unknown[]) => printed.push(args) });
    expect(printed.map(([fingerprint]) => fingerprint)).toContain('hf:acme/llama-3-8b-lora');
  });
});
