// Online mode against the real public API (its test harness: scratch database, Redis prefix, a real key), served on
// a port through a recording proxy, so the test sees every byte the scanner sent.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, enrichLikeWorker, projected, type Harness } from '@risk/public-api/test/harness';
import { createPublicClient, NotFoundError, type PublicPaths, type RiskClient } from '@risk/sdk';
import { BIN, maliciousPickle, safetensors, tempDir, writeTree, type Run } from './helpers';
import { scaledByLoad } from '@risk/testing';

const TOKEN = 'ghp_Zq8XwV3nB5mK7pL2rT9yU4iO6aS1dF0gH3jK';

let h: Harness;
let server: http.Server;
let api: http.Server;
let url: string;
let risk: RiskClient<PublicPaths>;
/** every request the scanner made: method, path and body */
const sent: Array<{ method: string; path: string; body: Buffer }> = [];

beforeAll(async () => {
  h = await createHarness('scannersubmit');
  api = http.createServer(h.app);
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // records each request, then forwards it to the API as it came
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      sent.push({ method: req.method!, path: req.url!, body });
      const headers = { ...req.headers };
      delete headers['content-length'];
      void fetch(`${apiUrl}${req.url}`, {
        method: req.method,
        headers: headers as Record<string, string>,
        body: body.length ? body : undefined,
      }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  risk = createPublicClient({ baseUrl: apiUrl, apiKey: h.key });
});
afterAll(async () => {
  for (const s of [server, api]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await h.close();
});

/** Runs the command as a process without blocking this one (the API answers from this process). */
function runAsync(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', RISK_API_URL: url, RISK_API_KEY: h.key, RISK_ORG_ID: h.orgId, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function tree(): { root: string; pickleSha: string; safetensorsSha: string } {
  const root = tempDir('submit');
  writeTree(root, {
    '.cursor/mcp.json': JSON.stringify({
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-github'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: TOKEN },
        },
      },
    }),
    'models/evil/pytorch_model.bin': maliciousPickle(),
    'models/clean/model.safetensors': safetensors(),
  });
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  return { root, pickleSha: sha(maliciousPickle()), safetensorsSha: sha(safetensors()) };
}

/** The org's stored signals (there is no list route: ids from the database, each read through the API). */
async function storedSignals() {
  const rows = await h.ctx.db.prisma.signal.findMany({ where: { org_id: h.orgId }, select: { id: true } });
  return Promise.all(
    rows.map((row) => risk.get('/v1/signals/{signal_id}', { params: { path: { signal_id: row.id } } })),
  );
}

test('--dry-run prints the redacted signals and sends nothing', async () => {
  const { root } = tree();
  const before = sent.length;
  const r = await runAsync(['scan', root, '--dry-run']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(sent.length).toBe(before);
  const { signals } = JSON.parse(r.stdout) as { signals: Array<Record<string, unknown>> };
  expect(signals.map((s) => s.asset_type).sort()).toEqual(['mcp_server', 'model', 'model']);
  expect(signals.every((s) => s.org_id === h.orgId)).toBe(true);
  expect(r.stdout).not.toContain(TOKEN);
  expect(r.stdout).toContain('[REDACTED]');
  expect(await storedSignals()).toEqual([]);
});

test(
  '--submit sends redacted signals, uploads unknown model files once and prints the platform verdicts',
  async () => {
    const { root, pickleSha, safetensorsSha } = tree();
    // the clean file is already known to the platform: only the pickle is new
    await risk.raw.POST('/v1/artifacts', {
      body: safetensors() as unknown as string,
      bodySerializer: (b) => b,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    sent.length = 0;
    const running = runAsync(['scan', root, '--submit', '--format', 'json', '--wait', '60']);
    // play the worker: once the signals are stored, enrich each asset as the worker would
    let stored: Awaited<ReturnType<typeof storedSignals>> = [];
    for (let i = 0; i < 200 && stored.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stored = await storedSignals();
    }
    await projected(h);
    for (const s of stored) await enrichLikeWorker(h, s.fingerprint);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('sent 3 signals; uploaded 1 model files, 1 already known, 0 not uploaded');

    // nothing the scanner sent holds the secret; the stored signal carries the redacted manifest and the artifacts
    expect(sent.some((x) => x.body.includes(TOKEN))).toBe(false);
    expect(sent.filter((x) => x.path.split('?')[0] === '/v1/artifacts').length).toBe(1);
    expect(sent.filter((x) => x.path.startsWith('/v1/artifacts/lookup')).length).toBe(1);
    expect(sent.filter((x) => x.path === '/v1/signals/bulk').length).toBe(1);
    expect(stored).toHaveLength(3);
    const mcp = stored.find((s) => s.asset_type === 'mcp_server')!;
    expect(mcp.raw_manifest).toContain('[REDACTED]');
    expect(mcp.raw_manifest).not.toContain(TOKEN);
    const models = stored.filter((s) => s.asset_type === 'model');
    expect(
      models
        .flatMap((s) => s.artifacts ?? [])
        .map((a) => a.sha256)
        .sort(),
    ).toEqual([pickleSha, safetensorsSha].sort());
    const read = await risk.get('/v1/artifacts/{sha256}', { params: { path: { sha256: pickleSha } } });
    expect(read.verdict).toBe('malicious');
    // each file carries the local analyser's verdict as this org's reported scan result (docs/artifacts.md)
    const named = new Map(models.flatMap((s) => s.artifacts ?? []).map((a) => [a.sha256, a]));
    expect(named.get(pickleSha)?.reported).toMatchObject({
      verdict: 'malicious',
      analyser: 'risk-scan',
      findings: expect.arrayContaining([
        expect.objectContaining({ evidence: expect.objectContaining({ callable: 'os.system' }) }),
      ]),
    });
    expect(named.get(safetensorsSha)?.reported).toMatchObject({ verdict: 'benign', analyser: 'risk-scan' });

    // the verdicts printed are the platform's
    const report = JSON.parse(r.stdout) as { assets: Array<{ fingerprint: string; risk_score: number }> };
    const platform = await risk.get('/v1/assets/{fingerprint}', { params: { path: { fingerprint: mcp.fingerprint } } });
    expect(platform.enrichment_status).toBe('enriched');
    const printed = report.assets.find((a) => a.fingerprint === mcp.fingerprint)!;
    expect(printed.risk_score).toBe(platform.effective_risk_score);

    // a second run: every model file is known now, nothing is uploaded again
    sent.length = 0;
    const again = await runAsync(['scan', root, '--submit', '--format', 'json', '--wait', '0']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('uploaded 0 model files, 2 already known');
    expect(sent.filter((x) => x.path.split('?')[0] === '/v1/artifacts').length).toBe(0);
  },
  scaledByLoad(180_000),
);

test(
  '--submit reports the local verdict of a file it does not upload: the org sees it, the shared verdict not',
  async () => {
    // a pickle the platform has never seen (os.system('whoami')), over --max-upload-size: never uploaded
    const pickle = Buffer.concat([
      Buffer.from([0x80, 0x02]),
      Buffer.from('cposix\nsystem\n', 'latin1'),
      Buffer.from([0x58, 6, 0, 0, 0]),
      Buffer.from('whoami', 'latin1'),
      Buffer.from([0x85, 0x52, 0x2e]),
    ]);
    const sha = createHash('sha256').update(pickle).digest('hex');
    const root = tempDir('submit-local');
    writeTree(root, { 'models/big/pytorch_model.bin': pickle });
    sent.length = 0;
    const running = runAsync([
      'scan',
      root,
      '--submit',
      '--format',
      'json',
      '--wait',
      '60',
      '--max-upload-size',
      '1',
      '--fail-on',
      'critical',
    ]);
    let fingerprint: string | undefined;
    for (let i = 0; i < 200 && !fingerprint; i++) {
      await new Promise((r) => setTimeout(r, 100));
      fingerprint = (await storedSignals()).find((s) => s.artifacts?.some((a) => a.sha256 === sha))?.fingerprint;
    }
    await projected(h);
    await enrichLikeWorker(h, fingerprint!);
    const r = await running;
    expect(r.stderr).toContain('uploaded 0 model files, 0 already known, 1 not uploaded');
    expect(sent.filter((x) => x.path.split('?')[0] === '/v1/artifacts').length).toBe(0);

    // the org's view: the local verdict as a client-reported finding; the shared verdict of the bytes: none
    const asset = await risk.get('/v1/assets/{fingerprint}', {
      params: { path: { fingerprint: fingerprint! }, query: { 'expand[]': ['findings'] } },
    });
    expect(asset.findings).toContainEqual(
      expect.objectContaining({
        rule_id: 'artifact_reported_malicious',
        evidence: expect.objectContaining({ source: 'client_reported', analyser: 'risk-scan' }),
      }),
    );
    // the SDK raises NotFoundError for the 404 of bytes the platform never scanned
    await expect(risk.get('/v1/artifacts/{sha256}', { params: { path: { sha256: sha } } })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    // the printed verdict keeps the local malicious file, so --fail-on critical fails the run
    const report = JSON.parse(r.stdout) as { assets: Array<{ fingerprint: string; risk_severity: string }> };
    expect(report.assets.find((a) => a.fingerprint === fingerprint)?.risk_severity).toBe('critical');
    expect(r.code).toBe(1);
  },
  scaledByLoad(180_000),
);

test('--submit without the API settings is a usage error', async () => {
  const r = await runAsync(['scan', tempDir('submit-usage'), '--submit'], { RISK_API_KEY: '' });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('RISK_API_URL and RISK_API_KEY');
});
