// /docs of the admin API in a real browser: the shared suite (packages/testing/src/docs-site-suite.ts,
// docs/guides/quick-start.md "Docs site") on the admin API's factory, and the admin guides among the pages.
import { describeDocsSite } from '@risk/testing/src/docs-site-suite';
import { createAdminHarness } from './harness';

const suite = describeDocsSite({
  name: 'admin-api',
  start: () => createAdminHarness('docssite'),
  openapiPath: '/openapi.json',
  minOperations: 20,
});

test('the admin flows guide is among the rendered pages', () => {
  expect(suite.visit().guides.find((g) => g.slug === 'admin-flows')?.heading).toMatch(/admin/i);
});
