// The console in a real browser against the real stack (docs/console.md "Tests"): the admin
// signs in and creates a tenant and a deployment token through the console's session; a collector submits real
// manifests (../shared/samples/manifests, or the repository's own fixtures without it) with the exchanged key;
// the tenant signs in, watches them become enriched in the Assets table, opens an asset and triages a finding.
// Every page gets a screenshot (packages/console/test-results/, git-ignored) and an axe-core pass with no
// serious or critical violation; no request leaves 127.0.0.1 and the CSP reports nothing.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { cspViolations, launchDocsBrowser, type DocsBrowser } from '@risk/testing/src/docs-browser';
import { ensureConsoleBuilt } from '@risk/cli/src/console-build';
import { checkPhone, DESKTOP, PHONE } from './browser';
import { startConsoleStack, type ConsoleStack } from './stack';
import { scaledByLoad } from '@risk/testing';

const OUT = path.join(__dirname, '..', 'test-results');
const DOC_IMAGES = path.join(__dirname, '..', '..', '..', 'docs', 'images');
const SAMPLES = path.resolve(__dirname, '../../../../shared/samples/manifests');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** real manifests, with the asset they describe */
const SIGNALS = [
  {
    file: '31-hf-config-codegeex2-auto-map.json',
    fingerprint: 'hf:THUDM/codegeex2-6b',
    asset_type: 'model',
    name: 'THUDM/codegeex2-6b',
  },
  {
    file: '23-hf-card-sklearn-mpg-pickle-README.md',
    fingerprint: 'hf:dvgodoy/sklearn-mpg',
    asset_type: 'model',
    name: 'dvgodoy/sklearn-mpg',
  },
  {
    file: '22-hf-card-opt-13b-erebus-README.md',
    fingerprint: 'hf:KoboldAI/OPT-13B-Erebus',
    asset_type: 'model',
    name: 'KoboldAI/OPT-13B-Erebus',
  },
  {
    file: '01-mcp-server-filesystem-package.json',
    fingerprint: 'npm:@modelcontextprotocol/server-filesystem',
    asset_type: 'mcp_server',
    name: '@modelcontextprotocol/server-filesystem',
  },
  {
    file: '03-mcp-server-git-pyproject.toml',
    fingerprint: 'pypi:mcp-server-git',
    asset_type: 'mcp_server',
    name: 'mcp-server-git',
  },
] as const;

let stack: ConsoleStack;
let browser: DocsBrowser;
let page: Page;

beforeAll(async () => {
  ensureConsoleBuilt();
  mkdirSync(OUT, { recursive: true });
  stack = await startConsoleStack();
  browser = await launchDocsBrowser();
  page = await browser.context.newPage();
}, scaledByLoad(120_000));
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function shot(name: string) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** axe-core in the page (evaluated through the DevTools protocol: the page's CSP allows no inline script) */
async function axe(name: string) {
  const violations = (await page.evaluate(`${AXE}
    ;(async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))()`)) as string[];
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
}

/** a call through the console's own session: the cookie rides along, the CSRF token comes from the session */
async function consoleFetch(method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
  // runs in the page (a string: this file is type-checked without the DOM library)
  return page.evaluate(`(async () => {
    const session = await (await fetch('/console/v1/session')).json();
    const res = await fetch(${JSON.stringify(url)}, {
      method: ${JSON.stringify(method)},
      headers: { 'Content-Type': 'application/json', 'X-Console-CSRF': session.csrf_token, 'Idempotency-Key': crypto.randomUUID() },
      body: ${JSON.stringify(body === undefined ? null : JSON.stringify(body))} ?? undefined,
    });
    return { status: res.status, json: await res.json() };
  })()`);
}

/** polls a condition in the page (evaluated through the DevTools protocol, which the page's CSP allows) */
async function waitInPage(expression: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${expression}`);
    await page.waitForTimeout(100);
  }
}

async function signIn(token: string) {
  await page.goto(`${stack.adminUrl}/console/`);
  await page.getByLabel('Admin token or tenant token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

function manifest(file: string): string {
  const real = path.join(SAMPLES, file);
  return existsSync(real) ? readFileSync(real, 'utf8') : `{"name": "${file}"}`;
}

it(
  'admin → tenant → signals → enriched assets → asset page → triage, every page accessible',
  async () => {
    // 1. sign-in page, then the platform admin
    await page.goto(`${stack.adminUrl}/console/`);
    await page.getByRole('heading', { name: 'Risk console' }).waitFor();
    await shot('01-sign-in');
    await axe('sign-in');
    await signIn(stack.ctx.config.ADMIN_API_TOKEN!);
    await page.getByText('Platform admin').first().waitFor();
    await shot('02-admin-home');

    // 2. a tenant and a deployment token, through the console's session (the Admin pages come next)
    const tenant = await consoleFetch('POST', '/console/v1/admin/tenants/v1/register', {
      name: `console-e2e-${randomUUID().slice(0, 8)}`,
      admin_email: 'secops@console-e2e.example',
    });
    expect(tenant.status).toBe(201);
    const dpl = await consoleFetch('POST', `/console/v1/admin/tenants/v1/${tenant.json.id}/deployment-token`, {
      name: 'e2e',
    });
    expect(dpl.status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or tenant token').waitFor();

    // 3. a collector exchanges the deployment token and submits real manifests to the public API
    const creds = (await (
      await fetch(`${stack.adminUrl}/deploy/v1/credentials?token=${encodeURIComponent(dpl.json.token)}`)
    ).json()) as { org_id: string; api_key: { key: string } };
    const now = Math.floor(Date.now() / 1000);
    for (const s of SIGNALS) {
      const res = await fetch(`${stack.publicUrl}/v1/signals`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${creds.api_key.key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({
          fingerprint: s.fingerprint,
          asset_type: s.asset_type,
          org_id: creds.org_id,
          observed_at: now,
          name: s.name,
          raw_manifest: manifest(s.file),
        }),
      });
      expect(res.status).toBe(202);
    }

    // 4. the tenant signs in and watches the assets become enriched
    await signIn(tenant.json.tenant_token.token);
    await page.getByRole('link', { name: 'Assets' }).click();
    await page.getByRole('heading', { name: 'Assets' }).waitFor();
    const deadline = Date.now() + 60_000;
    for (;;) {
      const statuses = await page.locator('tbody tr td:nth-child(3)').allTextContents();
      if (statuses.length === SIGNALS.length && statuses.every((t) => t === 'enriched')) break;
      if (Date.now() > deadline) {
        const outbox = await stack.ctx.db.pool.query(
          'SELECT DISTINCT last_error FROM outbox WHERE processed_at IS NULL',
        );
        const problems = [
          ...stack.ctx.logLines.filter((l) => /"level":"(warn|error)"/.test(l)).slice(-3),
          ...outbox.rows.map((r: { last_error: string | null }) => `outbox: ${r.last_error}`),
        ];
        throw new Error(`not enriched in time: ${statuses.join(', ')}\n${problems.join('\n')}`);
      }
      await page.waitForTimeout(750);
      await page.reload();
      await page.getByRole('heading', { name: 'Assets' }).waitFor();
    }
    await shot('04-assets');
    await axe('assets');

    // a filter is a deep link
    await page.getByLabel('Type', { exact: true }).selectOption('mcp_server');
    await page.waitForURL(/asset_type=mcp_server/);
    await waitInPage(
      "[...document.querySelectorAll('tbody tr td:nth-child(2)')].map((td) => td.textContent).join() === 'mcp_server,mcp_server'",
    );

    // 5. the overview: one call to GET /v1/overview, whose figures the page shows
    const overviewAnswer = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/v1/overview'));
    await page.getByRole('link', { name: 'Overview' }).click();
    const figures = (await (await overviewAnswer).json()) as {
      assets: { total: number; scored: number; by_effective_severity: Record<string, number> };
    };
    expect(figures.assets).toMatchObject({ total: SIGNALS.length, scored: SIGNALS.length });
    await page.getByRole('heading', { name: 'Assets by effective severity' }).waitFor();
    await page.getByText(`${SIGNALS.length} assets observed, ${SIGNALS.length} scored.`).waitFor();
    const severityCells = await page
      .getByRole('table', { name: 'Assets by effective severity' })
      .locator('tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(Object.fromEntries(severityCells)).toEqual(
      Object.fromEntries(Object.entries(figures.assets.by_effective_severity).map(([s, n]) => [s, String(n)])),
    );
    const overview = await shot('03-overview');
    await axe('overview');

    // 6. the asset page of the model with remote code, and a triage
    await page.goto(`${stack.adminUrl}/console/assets/${encodeURIComponent('hf:THUDM/codegeex2-6b')}`);
    await page.getByRole('heading', { name: /^Findings/ }).waitFor();
    await page.getByRole('heading', { name: 'AI-BOM', exact: true }).waitFor();
    await page.getByRole('link', { name: 'CycloneDX 1.6' }).waitFor();
    await page.getByRole('heading', { name: 'Matching threats' }).waitFor();
    const asset = await shot('05-asset');
    await axe('asset');
    const firstTriage = page
      .getByRole('form')
      .filter({ has: page.getByRole('button', { name: 'Save triage' }) })
      .first();
    await firstTriage.getByLabel('Triage').selectOption('false_positive');
    await firstTriage.getByLabel('Comment').fill('reviewed in the console test');
    const saved = page.waitForResponse((r) => r.url().endsWith('/triage') && r.request().method() === 'POST');
    await firstTriage.getByRole('button', { name: 'Save triage' }).click();
    expect((await saved).status()).toBe(200);
    // the asset reloads: the finding now shows its triage and the effective score follows
    await page.getByRole('heading', { name: /^Findings/ }).waitFor();
    await shot('05b-asset-triaged');
    const triaged = await stack.ctx.db.prisma.findingTriage.findMany({ where: { org_id: creds.org_id } });
    expect(triaged.map((t) => t.state)).toContain('false_positive');

    // 7. phone width, with data: the overview, the assets table and the asset page (browser.ts checkPhone)
    await page.setViewportSize(PHONE);
    await page.goto(`${stack.adminUrl}/console/assets`);
    await page.locator('tbody tr').first().waitFor();
    await checkPhone(page, '06-assets');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Assets by effective severity' }).waitFor();
    await checkPhone(page, '07-overview');
    await page.goto(`${stack.adminUrl}/console/assets/${encodeURIComponent('hf:THUDM/codegeex2-6b')}`);
    await page.getByRole('heading', { name: 'Matching threats' }).waitFor();
    await checkPhone(page, '08-asset');
    await page.setViewportSize(DESKTOP);

    expect(await cspViolations(page)).toEqual([]);
    expect(browser.requested.filter((u) => !u.startsWith(stack.adminUrl))).toEqual([]);
    if (process.env.UPDATE_DOC_IMAGES) {
      mkdirSync(DOC_IMAGES, { recursive: true });
      copyFileSync(overview, path.join(DOC_IMAGES, 'console-overview.png'));
      copyFileSync(asset, path.join(DOC_IMAGES, 'console-asset.png'));
    }
  },
  scaledByLoad(180_000),
);
