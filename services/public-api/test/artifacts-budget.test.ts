import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCAN_CPU_BUDGET_SPENT } from '@risk/artifacts';
import { listenWithLimits } from '@risk/common/server';
import { openArtifactUpload, probeHealth, scaledByLoad, uploadArtifact, waitFor } from '@risk/testing';
import { currentSlowdown } from '@risk/time-budget';
import { opcodeFloodPickle } from '../../../packages/artifacts/test/pickle-bytes';
import type { PublicApiApp } from '../src/app';
import { scansInFlight } from '../src/domain/artifacts/scan-slots';
import { createHarness, idem, type Harness } from './harness';

// docs/artifacts.md "Upload scans under a budget": scans run in budgeted threads (a hostile pickle never stalls the
// API's event loop, and past its CPU budget it is unscannable), under a cap per replica (503) and per org (429).

/** Listens on a free port; the slot-holding uploads and the health probe need a real socket. */
async function listen(app: PublicApiApp) {
  const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
  return { server, port: (server.address() as AddressInfo).port };
}

/** An upload whose body never ends until destroyed: it holds its slots. */
function openUpload(port: number, key: string) {
  const req = openArtifactUpload(port, key, 1 << 20);
  req.write(Buffer.alloc(4096, 7));
  return req;
}

describe('artifact scans under a budget and caps', () => {
  let h: Harness;
  let spill: string;

  const upload = (app: PublicApiApp, bytes: Uint8Array, key = h.key, idempotencyKey = idem()) =>
    uploadArtifact(app, bytes, { key, idempotencyKey });

  beforeAll(async () => {
    spill = mkdtempSync(path.join(tmpdir(), 'artifacts-budget-spill-'));
    // the flood's scan must end within the request (201, not 202) however busy the machine is
    const scanWaitMs = String(scaledByLoad(30_000));
    h = await createHarness('artifacts_budget', {
      env: { ARTIFACTS_SPILL_DIR: spill, ARTIFACTS_SCAN_WAIT_MS: scanWaitMs },
    });
  });
  afterAll(async () => {
    await h.close();
    rmSync(spill, { recursive: true, force: true });
  });

  it(
    'scans a pickle of 10^7 opcodes off the event loop while /healthz answers within 1 s',
    async () => {
      const bytes = opcodeFloodPickle(10_000_000);
      const { server, port } = await listen(h.app);
      const probe = probeHealth(`http://127.0.0.1:${port}/healthz`);
      try {
        await probe.ready;
        const res = await upload(h.app, bytes);
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ format: 'pickle', verdict: 'benign', status: 'done', size: bytes.length });
      } finally {
        const latencies = await probe.stop();
        server.close();
        // how many probes fit in the scan depends on the machine's speed; what must hold is that each one answered in time
        expect(latencies.length).toBeGreaterThan(0);
        // the reference machine's bound, scaled by this machine's measured slowdown (@risk/time-budget)
        expect(Math.max(...latencies)).toBeLessThan(1000 * currentSlowdown());
        console.log(
          `upload scan: /healthz max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} probes`,
        );
      }
      expect(readdirSync(spill)).toEqual([]);
    },
    scaledByLoad(60_000),
  );

  it(
    'stops a scan past its CPU budget: the bytes are unscannable, never benign',
    async () => {
      const stingy = h.appWith({ config: { ...h.ctx.config, ARTIFACTS_SCAN_CPU_MS: 100 } });
      // a different flood (other bytes, so not the verdict of the test above) that needs far more than 100 ms
      const bytes = opcodeFloodPickle(30_000_001);
      const res = await upload(stingy, bytes);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ verdict: 'unscannable', facts: { unscannable: SCAN_CPU_BUDGET_SPENT } });
      expect(readdirSync(spill)).toEqual([]);
    },
    scaledByLoad(60_000),
  );

  it('refuses an upload past the replica cap with 503 and Retry-After', async () => {
    const app = h.appWith({ config: { ...h.ctx.config, ARTIFACTS_SCANS_PER_REPLICA: 1 } });
    const { server, port } = await listen(app);
    const held = openUpload(port, h.key);
    try {
      await waitFor('the held upload to take its slot', () => scansInFlight() === 1);
      const res = await upload(app, new Uint8Array([0x80, 4, 0x4e, 0x2e]));
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'service_unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      held.destroy();
      server.close();
    }
    await waitFor('the slots to be given back', () => scansInFlight() === 0);
  });

  it('refuses an org past its cap across replicas with 429 and Retry-After; other orgs go on', async () => {
    const capped = { ...h.ctx.config, ARTIFACTS_SCANS_PER_ORG: 1 };
    const refusedKey = idem();
    const replicaA = h.appWith({ config: capped });
    const replicaB = h.appWith({ config: capped });
    const { server, port } = await listen(replicaA);
    const held = openUpload(port, h.key);
    try {
      await waitFor('the held upload to take its slot', () => scansInFlight() === 1);
      const small = new Uint8Array([0x80, 4, 0x4b, 1, 0x2e]);
      const res = await upload(replicaB, small, h.key, refusedKey);
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const otherOrg = await h.mintKey({ orgId: 'org_artifacts_budget_other' });
      expect((await upload(replicaB, small, otherOrg)).status).toBe(201);
    } finally {
      held.destroy();
      server.close();
    }
    await waitFor('the slots to be given back', () => scansInFlight() === 0);
    // the slot is given back, and a refusal stores nothing: the same Idempotency-Key is free for the retry
    const retried = await upload(replicaB, new Uint8Array([0x80, 4, 0x4b, 2, 0x2e]), h.key, refusedKey);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });
});
