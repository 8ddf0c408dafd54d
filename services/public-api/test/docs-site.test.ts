// /docs of the public API in a real browser: the shared suite (packages/testing/src/docs-site-suite.ts,
// docs/guides/quick-start.md "Docs site") on the public API's factory, and its static assets' path checks.
import request from 'supertest';
import { describeDocsSite } from '@risk/testing/src/docs-site-suite';
import { createHarness } from './harness';

const suite = describeDocsSite({
  name: 'public-api',
  start: () => createHarness('docssite'),
  openapiPath: '/v1/openapi.json',
  minOperations: 10,
});

test('the docs assets route serves no file outside its folder and no page of its own', async () => {
  await request(suite.app()).get('/docs/assets/..%2Fpackage.json').expect(404);
  await request(suite.app()).get('/docs/assets/index.html').expect(404);
});
