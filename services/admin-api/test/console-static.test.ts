// The console's static files (docs/console.md "Build and serving"): index.html for every page (deep links) with
// no-cache, hashed assets cached for a year, a strict CSP on all of it, and the API paths under /console/v1 never
// answered with the page.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createAdminHarness, type AdminHarness } from './harness';
import { CONSOLE_CSP } from '../src/console/static-site';

let h: AdminHarness;
let missing: AdminHarness;
const dist = mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));
const INDEX =
  '<!doctype html><html><head><script type="module" src="/console/static/index-abc123.js"></script></head></html>';

beforeAll(async () => {
  mkdirSync(path.join(dist, 'static'));
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'static', 'index-abc123.js'), 'console.log(1)');
  h = await createAdminHarness('adminconsolestatic', { deps: { consoleDir: dist } });
  missing = await createAdminHarness('adminconsolenone', { deps: { consoleDir: path.join(dist, 'nope') } });
});
afterAll(async () => {
  await h.close();
  await missing.close();
});

describe('GET /console', () => {
  it.each([
    '/console',
    '/console/',
    '/console/assets',
    '/console/assets/hf%3Aacme%2Fmodel',
    '/console/firewalls/fw_1?x=1',
  ])('%s answers index.html with no-cache and the strict CSP', async (url) => {
    const res = await request(h.app).get(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves hashed assets with a year-long immutable cache, and 404 for an unknown one', async () => {
    const res = await request(h.app).get('/console/static/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect((await request(h.app).get('/console/static/nope.js')).status).toBe(404);
    expect((await request(h.app).get('/console/static/..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it("has no 'unsafe-inline', no other origin, and forbids framing", () => {
    expect(CONSOLE_CSP).not.toMatch(/unsafe|\*|https?:/);
    expect(CONSOLE_CSP).toMatch(/default-src 'self'/);
    expect(CONSOLE_CSP).toMatch(/frame-ancestors 'none'/);
  });

  it('never answers an API path under /console/v1 with the page', async () => {
    const res = await request(h.app).get('/console/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('route_not_found');
  });

  it('says how to build the console when it is not built', async () => {
    const res = await request(missing.app).get('/console/assets');
    expect(res.status).toBe(503);
    expect(res.text).toContain('pnpm build:console');
  });
});
