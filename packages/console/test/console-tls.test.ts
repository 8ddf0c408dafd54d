// The console over HTTPS (docs/console.md "Sign-in and access", "Tests"): admin-api serves TLS with a certificate
// of a freshly generated local CA (what `pnpm start --tls` uses), Chromium accepts it (ignoreHTTPSErrors), and the
// session cookie is `__Host-risk_console`: Secure, HttpOnly, SameSite=Strict, Path=/, no Domain, unreadable to
// scripts, gone at sign-out. Both kinds of session sign in, and the pages behind them load through the proxies.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page, Response } from 'playwright-core';
import { ensureLocalTls } from '@risk/common/tls';
import { cspViolations, launchDocsBrowser, type DocsBrowser } from '@risk/testing/src/docs-browser';
import { ensureConsoleBuilt } from '@risk/cli/src/console-build';
import { check, signIn } from './browser';
import { startConsoleStack, type ConsoleStack } from './stack';
import { scaledByLoad } from '@risk/testing';

const TLS_DIR = mkdtempSync(path.join(os.tmpdir(), 'risk-console-tls-'));
const EIGHT_HOURS_S = 8 * 3600;

let stack: ConsoleStack;
let browser: DocsBrowser;
let page: Page;

beforeAll(async () => {
  ensureConsoleBuilt();
  const tls = await ensureLocalTls(TLS_DIR);
  stack = await startConsoleStack({ tls: { certFile: tls.certFile, keyFile: tls.keyFile } });
  browser = await launchDocsBrowser({ ignoreHTTPSErrors: true });
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
}, scaledByLoad(120_000));
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  rmSync(TLS_DIR, { recursive: true, force: true });
});

/** signs in and returns the sign-in answer (to read its Set-Cookie) */
async function signInWatching(token: string): Promise<Response> {
  const answer = page.waitForResponse(
    (r) => r.url().endsWith('/console/v1/session') && r.request().method() === 'POST',
  );
  await signIn(page, { baseUrl: stack.adminUrl, token });
  return answer;
}

/** the session cookie as the browser keeps it: the one cookie of the origin, with the attributes designed */
async function expectSecureSessionCookie(signInAnswer: Response) {
  const setCookie = (await signInAnswer.headerValue('set-cookie')) ?? '';
  expect(setCookie).toMatch(/^__Host-risk_console=cs_[A-Za-z0-9_-]+;/);
  for (const attr of ['Path=/', 'HttpOnly', 'SameSite=Strict', 'Secure']) expect(setCookie.split('; ')).toContain(attr);
  expect(setCookie).not.toMatch(/domain=/i); // __Host-: bound to this host only
  const cookies = await browser.context.cookies(stack.adminUrl);
  expect(cookies.map((c) => c.name)).toEqual(['__Host-risk_console']);
  const [cookie] = cookies;
  expect(cookie).toMatchObject({ domain: '127.0.0.1', path: '/', secure: true, httpOnly: true, sameSite: 'Strict' });
  const nowS = Date.now() / 1000;
  expect(cookie!.expires).toBeGreaterThan(nowS);
  expect(cookie!.expires).toBeLessThanOrEqual(nowS + EIGHT_HOURS_S + 5); // the absolute lifetime
  expect(await page.evaluate('document.cookie')).toBe(''); // HttpOnly: scripts cannot read it
}

it(
  'HTTPS: the session cookie is __Host-, Secure, HttpOnly, SameSite=Strict; signed-in pages load',
  async () => {
    expect(stack.adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:/);

    // the platform admin: the cookie, then a page behind the session (the admin door, over HTTPS)
    await expectSecureSessionCookie(await signInWatching(stack.ctx.config.ADMIN_API_TOKEN!));
    await page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
    const name = `tls-${randomUUID().slice(0, 8)}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Admin e-mail').fill('secops@tls.example');
    await page.getByRole('button', { name: 'Register tenant' }).click();
    const panel = page.getByRole('region', { name: `Tenant token of ${name}` });
    const tenantToken = (await panel.getByTestId('secret').textContent()) ?? '';
    expect(tenantToken.split('.')).toHaveLength(3);
    await page.getByRole('link', { name }).waitFor(); // the list reloaded through the session
    await check(page, '50-tls-admin-tenants');

    // sign-out clears the cookie
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token or tenant token').waitFor();
    expect(await browser.context.cookies(stack.adminUrl)).toEqual([]);

    // the tenant: the same cookie design; an authenticated page through the admin door and one through the public door
    await expectSecureSessionCookie(await signInWatching(tenantToken));
    await page.goto(`${stack.adminUrl}/console/keys`);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByText("this console session's key (revoked at sign-out)").waitFor();
    await page.goto(`${stack.adminUrl}/console/assets`);
    await page.getByRole('heading', { level: 1, name: 'Assets' }).waitFor();
    await page
      .getByText(/No assets/)
      .first()
      .waitFor();
    await check(page, '51-tls-tenant-assets');
    // a deep link opened afresh (a new page of the same browser) is still signed in: the cookie rides along
    const second = await browser.context.newPage();
    await second.goto(`${stack.adminUrl}/console/policies`);
    await second.getByRole('heading', { level: 1, name: 'URL-filter policies' }).waitFor();
    await second.close();

    expect(await cspViolations(page)).toEqual([]);
    expect(browser.requested.filter((u) => !u.startsWith(stack.adminUrl))).toEqual([]);
  },
  scaledByLoad(120_000),
);
