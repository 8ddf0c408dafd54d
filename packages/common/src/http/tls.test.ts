// HTTPS for both APIs (docs/security.md "HTTPS"): listenWithLimits serves TLS with the local CA's
// certificate, reloadTls swaps it for new handshakes without touching open connections, HSTS only
// over HTTPS, and X-Forwarded-Proto counts only from a TRUST_PROXY peer.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import express from 'express';
import request from 'supertest';
import { loadConfig } from '../config';
import { ensureLocalTls, type LocalTlsFiles } from '../tls/local-ca';
import { closeServer, hsts, listenWithLimits, reloadTls, type Server } from './server';
import { scaledByLoad } from '@risk/time-budget';

function app(trustProxy: boolean | number | string[] = false) {
  const a = express();
  a.set('trust proxy', trustProxy);
  a.use(hsts(31_536_000));
  a.get('/', (req, res) => res.json({ protocol: req.protocol }));
  return a;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  fingerprint: string;
  reused: boolean;
}

function get(port: number, ca: string | Buffer | Buffer[], agent?: https.Agent, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: '/', ca, agent: agent ?? false, headers, servername: 'localhost' },
      (res) => {
        // read now: with a keep-alive agent the socket goes back to the pool at 'end'
        const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body,
            fingerprint,
            reused: (req as unknown as { reusedSocket: boolean }).reusedSocket,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let dir: string;
let tls: LocalTlsFiles;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'risk-tls-'));
  tls = await ensureLocalTls(path.join(dir, 'a'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('local CA (pnpm start --tls)', () => {
  it('is reused across starts; the server certificate is signed by it for localhost, 127.0.0.1 and ::1', async () => {
    const again = await ensureLocalTls(tls.dir);
    expect(again).toMatchObject({ createdCa: false, createdCert: false });
    const { X509Certificate } = await import('node:crypto');
    const leaf = new X509Certificate(fs.readFileSync(tls.certFile));
    const ca = new X509Certificate(fs.readFileSync(tls.caCertFile));
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.subjectAltName).toContain('DNS:localhost');
    expect(leaf.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
    expect(fs.statSync(tls.keyFile).mode & 0o077).toBe(0);
    expect(fs.statSync(tls.caKeyFile).mode & 0o077).toBe(0);
  });
});

describe('listenWithLimits with TLS', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = await listenWithLimits(app(), {
      port: 0,
      host: '127.0.0.1',
      tls: { certFile: tls.certFile, keyFile: tls.keyFile },
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => closeServer(server));

  it('serves HTTPS trusted through the local CA, with HSTS', async () => {
    const res = await get(port, fs.readFileSync(tls.caCertFile));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ protocol: 'https' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('is refused by a client that does not trust the CA', async () => {
    const other = await ensureLocalTls(path.join(dir, 'other'));
    await expect(get(port, fs.readFileSync(other.caCertFile))).rejects.toThrow(
      /self.signed|unable to verify|certificate/i,
    );
  });

  it('reloadTls: new handshakes get the new certificate; an open keep-alive connection carries on', async () => {
    const b = await ensureLocalTls(path.join(dir, 'b'));
    const bothCas = [fs.readFileSync(tls.caCertFile), fs.readFileSync(b.caCertFile)];
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await get(port, bothCas, agent);
    // swap the files in place as a certificate renewal would, then reload
    const files = { certFile: path.join(dir, 'live.crt'), keyFile: path.join(dir, 'live.key') };
    fs.copyFileSync(b.certFile, files.certFile);
    fs.copyFileSync(b.keyFile, files.keyFile);
    reloadTls(server, files);
    const sameConnection = await get(port, bothCas, agent);
    expect(sameConnection.reused).toBe(true);
    expect(sameConnection.status).toBe(200);
    expect(sameConnection.fingerprint).toBe(before.fingerprint);
    const fresh = await get(port, fs.readFileSync(b.caCertFile));
    expect(fresh.status).toBe(200);
    expect(fresh.fingerprint).not.toBe(before.fingerprint);
    agent.destroy();
    // a bad pair throws and the current certificate keeps serving
    fs.writeFileSync(files.keyFile, 'not a key');
    expect(() => reloadTls(server, files)).toThrow();
    expect((await get(port, fs.readFileSync(b.caCertFile))).status).toBe(200);
    reloadTls(server, { certFile: tls.certFile, keyFile: tls.keyFile });
  });
});

describe('HSTS and X-Forwarded-Proto over plain HTTP', () => {
  it('no HSTS over plain HTTP; X-Forwarded-Proto from an untrusted peer is ignored', async () => {
    const res = await request(app()).get('/').set('X-Forwarded-Proto', 'https');
    expect(res.body).toEqual({ protocol: 'http' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('X-Forwarded-Proto from a TRUST_PROXY peer is honoured: HSTS on', async () => {
    for (const trust of ['loopback', '1', '127.0.0.1/8']) {
      const res = await request(app(loadConfig({ TRUST_PROXY: trust }).TRUST_PROXY))
        .get('/')
        .set('X-Forwarded-Proto', 'https');
      expect(res.body).toEqual({ protocol: 'https' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    }
    // trusted peer saying http: no HSTS
    const plainRes = await request(app(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY))
      .get('/')
      .set('X-Forwarded-Proto', 'http');
    expect(plainRes.headers['strict-transport-security']).toBeUndefined();
    // a proxy list that does not include the peer: ignored
    const other = await request(app(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).TRUST_PROXY))
      .get('/')
      .set('X-Forwarded-Proto', 'https');
    expect(other.body).toEqual({ protocol: 'http' });
    expect(other.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('config', () => {
  it('TLS_CERT_FILE and TLS_KEY_FILE: both or neither; the public base URL is https with them', () => {
    expect(loadConfig({}).PUBLIC_API_BASE_URL).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ TLS_CERT_FILE: 'a.crt', TLS_KEY_FILE: 'a.key' }).PUBLIC_API_BASE_URL).toBe(
      'https://127.0.0.1:8080',
    );
    expect(() => loadConfig({ TLS_CERT_FILE: 'a.crt' })).toThrow(/set both/);
  });
});

describe('SIGHUP', () => {
  it(
    'a process reloads its certificate on SIGHUP and keeps running',
    async () => {
      const b = await ensureLocalTls(path.join(dir, 'b'));
      const files = { certFile: path.join(dir, 'hup.crt'), keyFile: path.join(dir, 'hup.key') };
      fs.copyFileSync(tls.certFile, files.certFile);
      fs.copyFileSync(tls.keyFile, files.keyFile);
      const script = `
      const express = require('express');
      const { listenWithLimits, reloadTlsOnSighup } = require(${JSON.stringify(path.resolve(__dirname, 'server.ts'))});
      const { createLogger } = require(${JSON.stringify(path.resolve(__dirname, '..', 'logger.ts'))});
      (async () => {
        const a = express();
        a.get('/', (req, res) => res.json({ ok: true }));
        const files = ${JSON.stringify(files)};
        const server = await listenWithLimits(a, { port: 0, host: '127.0.0.1', tls: files });
        reloadTlsOnSighup(createLogger({ service: 'hup', level: 'info' }), server, files);
        process.stdout.write('PORT ' + server.address().port + '\\n');
      })();`;
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: path.resolve(__dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      try {
        const port = await new Promise<number>((resolve, reject) => {
          const t = setInterval(() => {
            const m = /PORT (\d+)/.exec(out);
            if (m) {
              clearInterval(t);
              resolve(Number(m[1]));
            }
          }, 50);
          child.on('exit', () => reject(new Error(`exited:\n${out}`)));
        });
        const first = await get(port, fs.readFileSync(tls.caCertFile));
        fs.copyFileSync(b.certFile, files.certFile);
        fs.copyFileSync(b.keyFile, files.keyFile);
        child.kill('SIGHUP');
        const deadline = Date.now() + 10_000;
        for (;;) {
          await new Promise((r) => setTimeout(r, 100));
          const now = await get(port, fs.readFileSync(b.caCertFile)).catch(() => null);
          if (now) {
            expect(now.fingerprint).not.toBe(first.fingerprint);
            break;
          }
          if (Date.now() > deadline) throw new Error(`no reload:\n${out}`);
        }
        expect(child.exitCode).toBeNull();
        expect(out).toContain('tls certificate reloaded');
      } finally {
        child.kill('SIGKILL');
      }
    },
    scaledByLoad(30_000),
  );
});
