// What the console's browser tests do to every page (docs/console.md "Tests"): a full-page screenshot in
// test-results/ (git-ignored) and an axe-core pass with no serious or critical violation; at phone width
// (390×844) also no sideways scrolling of the page and a reachable navigation. Sign-in and the main navigation.
// What runs in the page is passed as a string: this code is type-checked without the DOM library, and the
// DevTools protocol's evaluation is not subject to the page's CSP.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export const OUT = path.join(__dirname, '..', 'test-results');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** a full-page screenshot (test-results/<name>.png); returns its path */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** axe-core on the page as it is: no serious or critical violation */
export async function axe(page: Page, name: string): Promise<void> {
  const violations = (await page.evaluate(`${AXE}
    ;(async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))()`)) as string[];
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
}

/** screenshot + axe */
export async function check(page: Page, name: string): Promise<void> {
  await shot(page, name);
  await axe(page, name);
}

/**
 * The page at phone width, already loaded: the document does not scroll sideways (wide tables scroll inside
 * their own container), every link of the main navigation (when signed in) and the Sign out button lie within
 * the viewport's width and are visible, then screenshot + axe.
 */
export async function checkPhone(page: Page, name: string): Promise<void> {
  const width = (await page.evaluate(
    `(() => { const e = document.scrollingElement;
      const over = (n) => n.getBoundingClientRect().right > e.clientWidth + 1;
      const wide = [...document.querySelectorAll('body *')]
        .filter((n) => over(n) && (!over(n.parentElement) || ['absolute', 'fixed'].includes(getComputedStyle(n).position)))
        .slice(0, 5)
        .map((n) => n.tagName.toLowerCase() + (typeof n.className === 'string' && n.className ? '.' + n.className.split(' ').join('.') : '')
          + ' in ' + n.parentElement.tagName.toLowerCase() + '.' + n.parentElement.className);
      return { scroll: e.scrollWidth, client: e.clientWidth, wide }; })()`,
  )) as { scroll: number; client: number; wide: string[] };
  // `wide` and `size` say what overflowed when it does (the outermost elements past the right edge)
  const size = `${width.scroll} / ${width.client}`;
  expect({ page: name, fits: width.scroll <= width.client + 1, wide: width.wide, size }).toEqual({
    page: name,
    fits: true,
    wide: width.wide,
    size,
  });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const signedIn = (await nav.count()) > 0;
  const reachable = signedIn
    ? [...(await nav.getByRole('link').all()), page.getByRole('button', { name: 'Sign out' })]
    : [];
  for (const target of reachable) {
    const box = await target.boundingBox();
    const label = await target.textContent();
    expect({
      page: name,
      label,
      visible: await target.isVisible(),
      inside: !!box && box.x >= 0 && box.x + box.width <= PHONE.width + 1,
    }).toEqual({
      page: name,
      label,
      visible: true,
      inside: true,
    });
  }
  await check(page, `${name}-phone`);
}

export async function signIn(page: Page, input: { baseUrl: string; token: string }): Promise<void> {
  await page.goto(`${input.baseUrl}/console/`);
  await page.getByLabel('Admin token or tenant token').fill(input.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** follows a link of the main navigation and waits for the page's heading */
export async function nav(page: Page, name: string, heading: string | RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}
