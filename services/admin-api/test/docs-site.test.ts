// /docs in a real browser (docs/guides/quick-start.md "Docs site"): the admin API from its factory on a scratch
// database, served on 127.0.0.1, opened in headless Chromium. The reference must draw every operation of the
// admin OpenAPI document, every guide must render, no request may leave the machine and the CSP must not have
// to block anything. Screenshots land in test-output/docs/.
import { existsSync } from 'node:fs';
import request from 'supertest';
import { DOCS_GUIDE_CSP, DOCS_REFERENCE_CSP, GUIDE_PAGES } from '@risk/common';
import {
  isLocal,
  operationsOf,
  serveOnLoopback,
  visitDocsSite,
  type DocsSiteVisit,
} from '@risk/testing/src/docs-browser';
import { createAdminHarness, type AdminHarness } from './harness';

jest.setTimeout(120_000);

let h: AdminHarness;
let visit: DocsSiteVisit;
let operations: ReturnType<typeof operationsOf>;

beforeAll(async () => {
  h = await createAdminHarness('docssite');
  const document = (await request(h.app).get('/openapi.json').expect(200)).body as Parameters<typeof operationsOf>[0];
  operations = operationsOf(document);
  const server = await serveOnLoopback(h.app);
  try {
    visit = await visitDocsSite({
      baseUrl: server.url,
      name: 'admin-api',
      guideSlugs: GUIDE_PAGES.map((p) => p.slug),
      expectedOperations: operations.length,
    });
  } finally {
    await server.close();
  }
});
afterAll(() => h.close());

test('the reference draws every operation of the OpenAPI document with its summary', () => {
  expect(visit.reference.status).toBe(200);
  expect(operations.length).toBeGreaterThan(20);
  const drawn = visit.reference.listed.map((op) => `${op.method} ${op.path} ${op.summary}`).sort();
  const documented = operations.map((op) => `${op.method} ${op.path} ${op.summary ?? ''}`).sort();
  expect(drawn).toEqual(documented);
  expect(existsSync(visit.reference.screenshot)).toBe(true);
});

test('every guide page renders its heading, the admin flows among them', () => {
  expect(visit.guides.map((g) => [g.slug, g.status])).toEqual(GUIDE_PAGES.map((p) => [p.slug, 200]));
  for (const guide of visit.guides) {
    expect(guide.heading.length).toBeGreaterThan(2);
    expect(existsSync(guide.screenshot)).toBe(true);
  }
  expect(visit.guides.find((g) => g.slug === 'admin-flows')?.heading).toMatch(/admin/i);
});

test('no request leaves 127.0.0.1 and the CSP blocks nothing the pages need', () => {
  expect(visit.requested.length).toBeGreaterThan(GUIDE_PAGES.length);
  expect(visit.requested.filter((url) => !isLocal(url))).toEqual([]);
  expect(visit.reference.violations).toEqual([]);
  expect(visit.guides.flatMap((g) => g.violations)).toEqual([]);
});

test('pages carry the strict CSP and need no credential; unknown pages are JSON 404s', async () => {
  const reference = await request(h.app).get('/docs').expect(200);
  expect(reference.headers['content-security-policy']).toBe(DOCS_REFERENCE_CSP);
  const guide = await request(h.app).get('/docs/guides/admin-flows').expect(200);
  expect(guide.headers['content-security-policy']).toBe(DOCS_GUIDE_CSP);
  expect(guide.text).not.toMatch(/<script/);
  const missing = await request(h.app).get('/docs/guides/nope').expect(404);
  expect(missing.body.error.code).toBe('route_not_found');
});
