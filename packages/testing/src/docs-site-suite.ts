// The /docs suite both APIs run (docs/guides/quick-start.md "Docs site"): the service from its factory on a
// scratch database, served on 127.0.0.1, opened in headless Chromium. The reference must draw every operation
// of the service's own OpenAPI document, every guide must render, no request may leave the machine, the CSP
// must not have to block anything, and unknown pages are JSON 404s. Screenshots land in test-output/docs/.
// A service's test file calls it and adds its own checks with the app it returns.
import { existsSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { DOCS_GUIDE_CSP, DOCS_REFERENCE_CSP, GUIDE_PAGES } from '@risk/common/docs-site';
import { isLocal, operationsOf, serveOnLoopback, visitDocsSite, type DocsSiteVisit } from './docs-browser';
import { scaledByLoad } from '@risk/time-budget';

export interface DocsSiteSuite {
  /** the service's app, for the file's own checks */
  app(): RequestListener;
  visit(): DocsSiteVisit;
}

export function describeDocsSite(opts: {
  /** the screenshot folder's name: 'public-api', 'admin-api' */
  name: string;
  /** the service on a scratch database */
  start(): Promise<{ app: RequestListener; close(): Promise<void> }>;
  /** where the service serves its OpenAPI document */
  openapiPath: string;
  /** a floor on the operation count, so an empty document cannot pass */
  minOperations: number;
}): DocsSiteSuite {
  jest.setTimeout(scaledByLoad(120_000));
  let service: { app: RequestListener; close(): Promise<void> };
  let visit: DocsSiteVisit;
  let operations: ReturnType<typeof operationsOf>;

  beforeAll(async () => {
    service = await opts.start();
    const document = (await request(service.app).get(opts.openapiPath).expect(200)).body as Parameters<
      typeof operationsOf
    >[0];
    operations = operationsOf(document);
    const server = await serveOnLoopback(service.app);
    try {
      visit = await visitDocsSite({
        baseUrl: server.url,
        name: opts.name,
        guideSlugs: GUIDE_PAGES.map((p) => p.slug),
        expectedOperations: operations.length,
      });
    } finally {
      await server.close();
    }
  });
  afterAll(() => service?.close());

  test('the reference draws every operation of the OpenAPI document with its summary', () => {
    expect(visit.reference.status).toBe(200);
    expect(operations.length).toBeGreaterThan(opts.minOperations);
    const drawn = visit.reference.listed.map((op) => `${op.method} ${op.path} ${op.summary}`).sort();
    const documented = operations.map((op) => `${op.method} ${op.path} ${op.summary ?? ''}`).sort();
    expect(drawn).toEqual(documented);
    expect(existsSync(visit.reference.screenshot)).toBe(true);
  });

  test('every guide page renders its heading', () => {
    expect(visit.guides.map((g) => [g.slug, g.status])).toEqual(GUIDE_PAGES.map((p) => [p.slug, 200]));
    for (const guide of visit.guides) {
      expect(guide.heading.length).toBeGreaterThan(2);
      expect(existsSync(guide.screenshot)).toBe(true);
    }
  });

  test('no request leaves 127.0.0.1 and the CSP blocks nothing the pages need', () => {
    expect(visit.requested.length).toBeGreaterThan(GUIDE_PAGES.length);
    expect(visit.requested.filter((url) => !isLocal(url))).toEqual([]);
    expect(visit.reference.violations).toEqual([]);
    expect(visit.guides.flatMap((g) => g.violations)).toEqual([]);
  });

  test('pages carry the strict CSP and need no credential; raw HTML in a guide is escaped; unknown pages are JSON 404s', async () => {
    const reference = await request(service.app).get('/docs').expect(200);
    expect(reference.headers['content-security-policy']).toBe(DOCS_REFERENCE_CSP);
    expect(reference.text).not.toMatch(/<script>/); // external scripts only
    for (const { slug } of GUIDE_PAGES) {
      const guide = await request(service.app).get(`/docs/guides/${slug}`).expect(200);
      expect(guide.headers['content-security-policy']).toBe(DOCS_GUIDE_CSP);
      expect(guide.text).not.toMatch(/<script/);
    }
    const missing = await request(service.app).get('/docs/guides/nope').expect(404);
    expect(missing.body.error.code).toBe('route_not_found');
  });

  return { app: () => service.app, visit: () => visit };
}
