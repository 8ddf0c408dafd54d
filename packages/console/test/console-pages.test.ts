// The console's management pages in a real browser against the real stack (docs/console-pages.md
// "Tests"): the admin registers a tenant and a deployment token on the Admin pages; the tenant registers a
// simulated PAN-OS firewall and tests it, creates a URL-filter policy, reorders its rules by drag and by keyboard
// (a concurrent change is explained as a version conflict and reloaded), assigns it to the firewall and sees it
// synced, tests a URL; then Threats (create, STIX import), Webhooks (secret once, event log) and API keys (mint,
// revoke). Every page gets a screenshot (test-results/, git-ignored) and an axe-core pass with no serious or
// critical violation; no request leaves 127.0.0.1 and the CSP reports nothing.
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { startPanosSimulator } from '@risk/firewalls';
import { cspViolations, launchDocsBrowser, type DocsBrowser } from '@risk/testing/src/docs-browser';
import { ensureConsoleBuilt } from '@risk/cli/src/console-build';
import { startConsoleStack, type ConsoleStack } from './stack';
import * as b from './browser';
import { editRuleAndSettings } from './policy-edit';
import { scaledByLoad } from '@risk/testing';
const SIM_KEY = `sim-${randomUUID()}`;

let stack: ConsoleStack;
let browser: DocsBrowser;
let page: Page;
let sim: Awaited<ReturnType<typeof startPanosSimulator>>;
/** what the first test made, for the phone-width pass: the tenant's token and each object page's address */
const made = { tenantToken: '', tenant: '', firewall: '', policy: '', threat: '', webhook: '' };

beforeAll(async () => {
  ensureConsoleBuilt();
  [stack, sim] = await Promise.all([startConsoleStack(), startPanosSimulator({ apiKey: SIM_KEY })]);
  browser = await launchDocsBrowser();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
}, scaledByLoad(120_000));
afterAll(async () => {
  await browser?.close();
  await sim?.close();
  await stack?.close();
});

const check = (name: string) => b.check(page, name);
const signIn = (token: string) => b.signIn(page, { baseUrl: stack.adminUrl, token });
const nav = (name: string, heading: string | RegExp) => b.nav(page, name, heading);

/** the secret a shown-once panel holds, after checking its Copy button is there */
async function shownOnce(label: string | RegExp): Promise<string> {
  const panel = page.getByRole('region', { name: label });
  await panel.getByRole('button', { name: 'Copy' }).waitFor();
  return (await panel.getByTestId('secret').textContent()) ?? '';
}

/** polls `read` until it answers `expected` (the page saves asynchronously), at most 10 s */
async function until(read: () => Promise<string>, expected: string) {
  const deadline = Date.now() + 10_000;
  for (let got = await read(); got !== expected; got = await read()) {
    if (Date.now() > deadline) expect(got).toBe(expected);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ruleNames = (list: Locator) => list.locator('li .rule strong').allTextContents();
const policyRow = (policyId: string) =>
  stack.ctx.db.prisma.urlFilterPolicy.findUniqueOrThrow({
    where: { id: policyId },
    include: { rules: { orderBy: { position: 'asc' } } },
  });

it(
  'admin pages, then firewall, policy (drag + keyboard reorder, conflict, sync, URL test), threats, webhooks, keys',
  async () => {
    // --- platform admin: register a tenant (its token shown once), a deployment token on the tenant page
    await signIn(stack.ctx.config.ADMIN_API_TOKEN!);
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    const name = `pages-${randomUUID().slice(0, 8)}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Admin e-mail').fill('secops@pages.example');
    await page.getByRole('button', { name: 'Register tenant' }).click();
    const tenantToken = await shownOnce(`Tenant token of ${name}`);
    expect(tenantToken.split('.')).toHaveLength(3); // a JWT
    await page.getByRole('link', { name }).waitFor();
    await check('10-admin-tenants');
    await page.getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    made.tenant = page.url();
    made.tenantToken = tenantToken;
    await page.getByLabel('Name').fill('laptops');
    await page.getByRole('button', { name: 'Create deployment token' }).click();
    expect(await shownOnce('New deployment token')).toMatch(/^dpl_/);
    await page.getByRole('cell', { name: 'laptops', exact: true }).waitFor();
    await check('11-admin-tenant');
    await page.getByRole('button', { name: 'Sign out' }).click();

    // --- the tenant: a simulated PAN-OS firewall, registered and tested
    await signIn(tenantToken);
    await nav('Firewalls', 'Firewalls');
    await page.getByLabel('Name').fill('pa-sim');
    await page.getByLabel('Host').fill('127.0.0.1');
    await page.getByLabel('Port').fill(String(sim.port));
    await page.getByLabel('API token').fill(SIM_KEY);
    await page.getByLabel('Verify the TLS certificate').uncheck();
    await page.getByRole('button', { name: 'Register firewall' }).click();
    await page.getByRole('heading', { level: 1, name: 'pa-sim' }).waitFor();
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await page.getByTestId('fw-test-result').getByText('Connected', { exact: true }).waitFor();
    // a changed port needs the token again: the form says so and will not submit without it
    const edit = page.getByRole('form', { name: 'Edit' });
    await edit.getByLabel('Port').fill('9443');
    await edit.getByLabel('API token (required for this change)').waitFor();
    expect(await edit.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await edit.getByLabel('Port').fill(String(sim.port));
    await check('12-firewall');
    const firewallId = page.url().split('/').pop()!;
    made.firewall = page.url();

    // --- a policy with three rules
    await nav('Policies', 'URL-filter policies');
    await page.getByLabel('Name').fill('AI governance');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('heading', { level: 1, name: 'AI governance' }).waitFor();
    const policyId = decodeURIComponent(page.url().split('/').pop()!);
    made.policy = page.url();
    for (const [rule, action, domains] of [
      ['allow enterprise chat', 'allow', 'chatgpt.com'],
      ['block chat clones', 'block', 'chat-gpt-free.example'],
      ['alert on notebooks', 'alert', 'colab.example'],
    ]) {
      await page.getByLabel('Rule name').fill(rule!);
      await page.getByLabel('Action', { exact: true }).selectOption(action!);
      await page.getByLabel('Domains').fill(domains!);
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByRole('list', { name: 'Rules in order' }).getByText(rule!).waitFor();
    }
    const list = page.getByRole('list', { name: 'Rules in order' });
    expect(await ruleNames(list)).toEqual(['allow enterprise chat', 'block chat clones', 'alert on notebooks']);

    // by drag: the third rule's handle onto the first row
    await list.getByRole('button', { name: /^Reorder alert on notebooks/ }).dragTo(list.locator('li').first());
    await page.getByRole('status').filter({ hasText: 'Order saved.' }).waitFor();
    expect(await ruleNames(list)).toEqual(['alert on notebooks', 'allow enterprise chat', 'block chat clones']);
    expect((await policyRow(policyId)).rules.map((r) => r.name)).toEqual([
      'alert on notebooks',
      'allow enterprise chat',
      'block chat clones',
    ]);

    // by keyboard: focus the handle, Space, ↓, ↓, Space; each step is announced
    const handle = list.getByRole('button', { name: /^Reorder alert on notebooks/ });
    await handle.focus();
    await page.keyboard.press('Space');
    await page.getByText(/alert on notebooks grabbed, position 1 of 3/).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.getByText('alert on notebooks moved to position 3 of 3.').waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('status').filter({ hasText: 'Order saved.' }).waitFor();
    await until(
      async () => (await policyRow(policyId)).rules.map((r) => r.name).join(),
      'allow enterprise chat,block chat clones,alert on notebooks',
    );

    // someone else changes the policy: the next move is a 409, explained, and the page shows the reloaded policy
    const before = (await policyRow(policyId)).version;
    await stack.ctx.db.prisma.urlFilterPolicy.update({ where: { id: policyId }, data: { version: before + 1 } });
    await list.getByRole('button', { name: 'Move block chat clones up' }).click();
    await page.getByRole('alert').filter({ hasText: 'was changed elsewhere' }).waitFor();
    await page
      .getByTestId('policy-version')
      .getByText(String(before + 1), { exact: true })
      .waitFor(); // reloaded
    await until(
      async () => (await ruleNames(list)).join(),
      'allow enterprise chat,block chat clones,alert on notebooks',
    );

    await editRuleAndSettings({ page, stack, policyId, tenantToken });
    await check('13-policy');

    // assign to the simulated firewall and watch it become synced (the worker pushes it)
    await page.getByLabel('Assign to firewall').selectOption(firewallId);
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.locator(`tr[data-firewall="${firewallId}"] td.sync-synced`).waitFor({ timeout: 60_000 });
    expect(sim.state.requests.some((r) => r.type === 'commit')).toBe(true);

    // test a URL: the score, its factors and this policy's action
    await page.getByLabel('URL', { exact: true }).fill('https://chatgpt.com/c/123');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.getByTestId('url-result').waitFor();
    expect(await page.getByTestId('policy-action').textContent()).toMatch(/^allow /);
    await check('14-policy-synced-url-tested');
    await page.setViewportSize(b.PHONE);
    await b.checkPhone(page, '15-policy-url-tested');
    await page.setViewportSize(b.DESKTOP);

    // the firewall page lists the policy as synced
    await page.goto(`${stack.adminUrl}/console/firewalls/${encodeURIComponent(firewallId)}`);
    await page.getByRole('cell', { name: /^synced \(version/ }).waitFor();
    await nav('Policies', 'URL-filter policies');
    await page.getByRole('cell', { name: '1 synced', exact: true }).waitFor();
    await check('16-policies');

    // --- threats: create one (yours, editable), import a STIX bundle and read the per-object report
    await nav('Threats', 'Threats');
    await page.getByRole('button', { name: 'New threat' }).click();
    await page.getByLabel('Title').fill('Console test threat');
    await page.getByLabel('Severity').first().selectOption('high');
    await page.getByRole('button', { name: 'Create threat' }).click();
    await page.getByRole('heading', { level: 1, name: 'Console test threat' }).waitFor();
    await page.getByRole('heading', { name: 'Edit this threat' }).waitFor();
    made.threat = page.url();
    await check('17-threat');
    await nav('Threats', 'Threats');
    const bundle = {
      type: 'bundle',
      id: `bundle--${randomUUID()}`,
      objects: [
        {
          type: 'indicator',
          spec_version: '2.1',
          id: `indicator--${randomUUID()}`,
          created: '2026-11-20T14:02:11.000Z',
          modified: '2026-11-20T14:02:11.000Z',
          name: 'Trojanised adapter weights',
          pattern: "[url:value = 'https://huggingface.co/llama-tools/adapter']",
          pattern_type: 'stix',
          valid_from: '2026-11-20T14:02:11.000Z',
          labels: ['malicious_model'],
        },
      ],
    };
    await page.getByLabel('or paste the bundle').fill(JSON.stringify(bundle));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('import-report').getByText('1 imported, 0 merged, 0 skipped').waitFor();
    await page.getByRole('link', { name: 'Console test threat' }).waitFor();
    await check('18-threats');

    // --- webhooks (a URL that must resolve and be allowed: loopback in tests): the signing secret once, the endpoint page with its (empty) event log
    await nav('Webhooks', 'Webhooks');
    await page.getByLabel('URL').fill('https://127.0.0.1:9/risk');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    expect(await shownOnce(/^Signing secret of/)).toMatch(/^whsec_/);
    await check('19-webhooks');
    await page.getByRole('link', { name: 'https://127.0.0.1:9/risk' }).click();
    await page.getByRole('heading', { name: 'Event log' }).waitFor();
    made.webhook = page.url();
    await check('20-webhook');

    // --- API keys: mint a test-mode key with two scopes (shown once), then revoke it
    await nav('API keys', 'API keys');
    await page.getByLabel('Name').fill('ci uploader');
    await page.getByLabel('signals:read').check();
    await page.getByRole('radio', { name: /^test/ }).check();
    await page.getByRole('button', { name: 'Mint key' }).click();
    expect(await shownOnce(/^API key/)).toMatch(/^rk_test_/);
    await page.getByRole('cell', { name: 'signals:write, signals:read', exact: true }).waitFor();
    await page.getByText("this console session's key (revoked at sign-out)").waitFor(); // no Revoke for its own key
    await check('21-keys');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke ci uploader' }).click();
    await page.getByRole('cell', { name: 'revoked', exact: true }).waitFor();

    expect(await cspViolations(page)).toEqual([]);
    expect(browser.requested.filter((u) => !u.startsWith(stack.adminUrl))).toEqual([]);
  },
  scaledByLoad(240_000),
);

it(
  'every page at phone width: no sideways scrolling, the navigation reachable, screenshot and axe',
  async () => {
    expect(made.webhook).not.toBe(''); // the first test made the objects
    const failures: string[] = []; // every page is visited; the failures are reported together at the end
    const phone = (name: string) => b.checkPhone(page, name).catch((e: Error) => void failures.push(e.message));
    const visit = async (name: string, url: string, heading: string | RegExp) => {
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await phone(name);
    };
    const at = (route: string) => `${stack.adminUrl}/console${route}`;
    await page.setViewportSize(b.PHONE);
    // the tenant's pages (still signed in)
    await visit('30-overview', at('/'), 'Overview');
    await visit('31-assets', at('/assets'), 'Assets');
    await visit('32-threats', at('/threats'), 'Threats');
    await visit('33-threat', made.threat, 'Console test threat');
    await visit('34-webhooks', at('/webhooks'), 'Webhooks');
    await visit('35-webhook', made.webhook, 'https://127.0.0.1:9/risk');
    await visit('36-firewalls', at('/firewalls'), 'Firewalls');
    await visit('37-firewall', made.firewall, 'pa-sim');
    await visit('38-policies', at('/policies'), 'URL-filter policies');
    await visit('39-policy', made.policy, 'AI governance (EU)');
    await visit('40-keys', at('/keys'), 'API keys');
    // the sign-in page, then the platform admin's pages
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or tenant token').waitFor();
    await phone('41-sign-in');
    await signIn(stack.ctx.config.ADMIN_API_TOKEN!);
    await visit('42-tenants', at('/tenants'), 'Tenants');
    await visit('43-tenant', made.tenant, /^pages-/);
    await page.setViewportSize(b.DESKTOP);
    expect(failures).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  },
  scaledByLoad(120_000),
);
