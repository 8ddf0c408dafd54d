// Headless Chromium for the /docs tests (docs/guides/quick-start.md "Docs site"): Debian's chromium driven by
// playwright-core, which downloads no browser of its own. scripts/ensure-chromium.sh installs it when missing.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** where screenshots go: git-ignored, kept after the run for a person (or CI artefacts) to look at */
export const TEST_OUTPUT_DIR = path.resolve(__dirname, '../../../test-output');

/** Flags for a quiet, offline-friendly headless run: nothing phones home (updates, sync, QUIC probes, GPU). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface DocsBrowser {
  context: BrowserContext;
  /** every URL any page of this browser requested, in order */
  requested: string[];
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile; every request is recorded, and any that would leave 127.0.0.1 is aborted.
 * `ignoreHTTPSErrors` accepts a local self-signed certificate (the console's HTTPS test, docs/console.md "Tests").
 */
export async function launchDocsBrowser(opts: { ignoreHTTPSErrors?: boolean } = {}): Promise<DocsBrowser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`${CHROMIUM_PATH} is missing: run scripts/ensure-chromium.sh (apt-get install chromium)`);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'risk-docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    ignoreHTTPSErrors: opts.ignoreHTTPSErrors ?? false,
  });
  const requested: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (isLocal(url)) await route.continue();
    else await route.abort('blockedbyclient');
  });
  // CSP violations are reported to the page as events; collect them where the test can read them
  // (scripts as strings: they run in the page, and this package is type-checked without the DOM library)
  await context.addInitScript({
    content: `window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI);
      });`,
  });
  return {
    context,
    requested,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** true for http(s) URLs on the loopback address, and for the data:/blob: URLs a page makes itself */
export function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:')) return true;
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && (hostname === '127.0.0.1' || hostname === 'localhost');
  } catch {
    return false;
  }
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__cspViolations');
}

/** Saves a screenshot under test-output/docs/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(TEST_OUTPUT_DIR, 'docs');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** Serves an app on an ephemeral port of 127.0.0.1, as main.ts serves it on a fixed one. */
export async function serveOnLoopback(app: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The operations of an OpenAPI document: `GET /v1/assets` and the summary it should be listed with. */
export function operationsOf(document: {
  paths?: Record<string, Record<string, { summary?: string }>>;
  /** OpenAPI 3.1 webhooks: Swagger UI draws each as an operation named by the event type (docs/webhooks.md) */
  webhooks?: Record<string, Record<string, { summary?: string }>>;
}): Array<{ method: string; path: string; summary: string | undefined }> {
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
  const items = [...Object.entries(document.paths ?? {}), ...Object.entries(document.webhooks ?? {})];
  return items.flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.has(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path: p, summary: op.summary })),
  );
}

export interface DocsSiteVisit {
  reference: {
    status: number;
    /** the operations Swagger UI drew: method, path template, summary */
    listed: Array<{ method: string; path: string; summary: string }>;
    violations: string[];
    screenshot: string;
  };
  guides: Array<{ slug: string; status: number; heading: string; violations: string[]; screenshot: string }>;
  /** every URL the browser requested during the visit */
  requested: string[];
}

/**
 * Opens `${baseUrl}/docs` and every guide page in headless Chromium: waits until Swagger UI has drawn at least
 * `expectedOperations` operations, reads what it drew, and screenshots each page as `${name}-….png`.
 */
export async function visitDocsSite(opts: {
  baseUrl: string;
  name: string;
  guideSlugs: readonly string[];
  expectedOperations: number;
}): Promise<DocsSiteVisit> {
  const browser = await launchDocsBrowser();
  try {
    const page = await browser.context.newPage();
    const response = await page.goto(`${opts.baseUrl}/docs`, { waitUntil: 'load' });
    // A locator waits from Playwright's isolated world. waitForFunction would evaluate its predicate in the page
    // with eval, which the docs' Content-Security-Policy refuses once the first check finds too few operations.
    await page
      .locator('.opblock')
      .nth(Math.max(0, Number(opts.expectedOperations) - 1))
      .waitFor({ state: 'attached', timeout: 30_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '',
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim() ?? '',
      })),
    );
    const reference = {
      status: response?.status() ?? 0,
      listed,
      violations: await cspViolations(page),
      screenshot: await screenshot(page, `${opts.name}-reference`),
    };
    const guides: DocsSiteVisit['guides'] = [];
    for (const slug of opts.guideSlugs) {
      const guide = await page.goto(`${opts.baseUrl}/docs/guides/${slug}`, { waitUntil: 'load' });
      guides.push({
        slug,
        status: guide?.status() ?? 0,
        heading: ((await (await page.$('main h1'))?.textContent()) ?? '').trim(),
        violations: await cspViolations(page),
        screenshot: await screenshot(page, `${opts.name}-guide-${slug}`),
      });
    }
    return { reference, guides, requested: [...browser.requested] };
  } finally {
    await browser.close();
  }
}
