// `pnpm start --tls` (docs/security.md "HTTPS"): a local CA and server certificate in a git-ignored
// folder, how to trust it printed, and both APIs over HTTPS end to end with that CA: HSTS on, deployment
// credentials naming an https base URL, and the minted key posting a signal over HTTPS.
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createTestContext, plain, runStart, scaledByLoad, stackEnv, type TestContext, waitFor } from '@risk/testing';

const SDK_DIR = path.resolve(__dirname, '..', '..', 'sdk');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** https.request trusting only the given CA (no NODE_EXTRA_CA_CERTS, no rejectUnauthorized: false) */
function call(
  url: string,
  ca: Buffer,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = https.request(
      url,
      {
        method: opts.method ?? 'GET',
        ca,
        agent: false,
        headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('pnpm start --tls', () => {
  let ctx: TestContext;
  let tlsDir: string;
  beforeAll(async () => {
    ctx = await createTestContext('starttls');
    tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'risk-start-tls-'));
  });
  afterAll(async () => {
    fs.rmSync(tlsDir, { recursive: true, force: true });
    await ctx.close();
  });

  it(
    'generates a local CA, prints how to trust it, and both APIs answer over HTTPS with it',
    async () => {
      const adminToken = randomBytes(24).toString('hex');
      const { env, ports } = await stackEnv(ctx, { ADMIN_API_TOKEN: adminToken, RISK_LOCAL_TLS_DIR: tlsDir });
      const { pub, adm } = ports;
      const run = runStart(env, ['--tls']);
      const { child } = run;
      try {
        const caFile = path.join(tlsDir, 'ca.crt');
        await waitFor('the CA', () => fs.existsSync(caFile), { timeoutMs: 30_000, intervalMs: 100 });
        await waitFor(
          'both APIs over HTTPS',
          async () => {
            if (child.exitCode !== null) throw new Error(`start exited early:\n${run.output()}`);
            const ca = fs.readFileSync(caFile);
            const up = await Promise.all([
              call(`https://127.0.0.1:${pub}/readyz`, ca).then(
                (r) => r.status === 200,
                () => false,
              ),
              call(`https://localhost:${adm}/`, ca).then(
                (r) => r.status === 200,
                () => false,
              ),
            ]);
            return up.every(Boolean);
          },
          { timeoutMs: 60_000, intervalMs: 200 },
        );
        const ca = fs.readFileSync(caFile);
        const text = plain(run.output());
        expect(text).toContain(`generated local CA and generated server certificate in ${tlsDir}`);
        expect(text).toContain(`curl --cacert ${caFile}`);
        expect(text).toContain(`NODE_EXTRA_CA_CERTS=${caFile}`);
        expect(text).toContain(`public-api on https://localhost:${pub}`);
        expect(fs.existsSync(path.join(tlsDir, 'server.key'))).toBe(true);

        // HSTS on both; plain HTTP on the TLS port is not served
        const health = await call(`https://127.0.0.1:${pub}/readyz`, ca);
        expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
        expect((await call(`https://127.0.0.1:${adm}/`, ca)).headers['strict-transport-security']).toBe(
          'max-age=31536000',
        );
        await expect(fetch(`http://127.0.0.1:${pub}/readyz`)).rejects.toThrow();

        // deployment credentials over HTTPS hand out an https base URL; the minted key works over HTTPS
        const adminAuth = { Authorization: `Bearer ${adminToken}` };
        const name = `tls-${randomBytes(3).toString('hex')}`;
        const tenant = await call(`https://127.0.0.1:${adm}/tenants/v1/register`, ca, {
          method: 'POST',
          headers: adminAuth,
          body: { name, admin_email: `secops@${name}.example` },
        });
        expect(tenant.status).toBe(201);
        const dt = await call(`https://127.0.0.1:${adm}/tenants/v1/${tenant.body.id}/deployment-token`, ca, {
          method: 'POST',
          headers: adminAuth,
          body: {},
        });
        expect(dt.status).toBe(201);
        const creds = await call(
          `https://127.0.0.1:${adm}/deploy/v1/credentials?token=${encodeURIComponent(dt.body.token)}`,
          ca,
        );
        expect(creds.status).toBe(200);
        expect(creds.body.api_base_url).toBe(`https://127.0.0.1:${pub}`);
        const posted = await call(`${creds.body.api_base_url}/v1/signals`, ca, {
          method: 'POST',
          headers: { Authorization: `Bearer ${creds.body.api_key.key}`, 'Idempotency-Key': randomUUID() },
          body: {
            fingerprint: `sha256:${randomBytes(32).toString('hex')}`,
            asset_type: 'mcp_server',
            org_id: tenant.body.org_id,
            observed_at: Math.floor(Date.now() / 1000) - 30,
            name: '@modelcontextprotocol/server-filesystem',
            version: '2025.7.1',
          },
        });
        expect(posted.status).toBe(202);
        expect(posted.headers['strict-transport-security']).toBe('max-age=31536000');

        // the SDK over HTTPS: Node's fetch trusts the CA named by NODE_EXTRA_CA_CERTS, no SDK option needed
        const sdk = path.join(SDK_DIR, 'src', 'index.ts');
        const script = `
        const { createPublicClient } = require(${JSON.stringify(sdk)});
        const risk = createPublicClient({ baseUrl: ${JSON.stringify(creds.body.api_base_url)}, apiKey: ${JSON.stringify(creds.body.api_key.key)}, maxAttempts: 1 });
        risk.post('/v1/signals', { body: { fingerprint: 'sha256:${randomBytes(32).toString('hex')}', asset_type: 'mcp_server',
          org_id: ${JSON.stringify(tenant.body.org_id)}, observed_at: Math.floor(Date.now() / 1000) - 30, name: 'sdk-over-https' } })
          .then((s) => console.log('SDK', s.object, s.id), (e) => { console.error('SDK FAILED', e); process.exit(1); });`;
        const sdkRun = (extraCa: string | undefined) =>
          new Promise<{ code: number | null; out: string }>((resolve) => {
            const c = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
              cwd: SDK_DIR,
              env: {
                PATH: process.env.PATH ?? '',
                HOME: process.env.HOME ?? '',
                ...(extraCa ? { NODE_EXTRA_CA_CERTS: extraCa } : {}),
              },
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let o = '';
            c.stdout!.on('data', (d: Buffer) => (o += d.toString()));
            c.stderr!.on('data', (d: Buffer) => (o += d.toString()));
            c.on('close', (code) => resolve({ code, out: o }));
          });
        const trusted = await sdkRun(caFile);
        expect(trusted.out).toMatch(/SDK signal sig_/);
        expect(trusted.code).toBe(0);
        const untrusted = await sdkRun(undefined);
        expect(untrusted.code).toBe(1);
        expect(untrusted.out).toContain('SDK FAILED');
      } finally {
        child.kill('SIGTERM');
      }
      expect((await run.exited).code).toBe(0);

      // a second start reuses the CA (clients trust it once)
      const caBefore = fs.readFileSync(path.join(tlsDir, 'ca.crt'), 'utf8');
      const { ensureLocalTls } = await import('@risk/common/tls');
      expect(await ensureLocalTls(tlsDir)).toMatchObject({ createdCa: false, createdCert: false });
      expect(fs.readFileSync(path.join(tlsDir, 'ca.crt'), 'utf8')).toBe(caBefore);
    },
    scaledByLoad(120_000),
  );
});
