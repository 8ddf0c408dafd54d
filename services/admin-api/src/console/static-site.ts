// Serves the built console (packages/console/dist) at /console (docs/console.md "Build and serving"): hashed
// assets with a year-long immutable cache, index.html with no-cache for every other GET (deep links of the
// single-page app), all under a strict Content-Security-Policy: scripts, styles and calls from this origin
// only, no inline script or style, never framed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** packages/console/dist from services/admin-api/{src,dist}/console */
export const DEFAULT_CONSOLE_DIR = path.resolve(__dirname, '../../../../packages/console/dist');

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head><body>' +
  '<h1>The console is not built</h1><p>Run <code>pnpm build:console</code> (pnpm start does it when missing).</p></body></html>';

export function consoleSite(distDir: string = DEFAULT_CONSOLE_DIR): Router {
  const router = Router({ caseSensitive: true, strict: false });
  // Vite's build.assetsDir (vite.config.mts): not `assets`, which is a page of the app (/console/assets/…)
  const staticDir = path.join(distDir, 'static');
  let indexHtml: string | null = null;
  const index = (): string | null => {
    if (indexHtml === null && existsSync(path.join(distDir, 'index.html')))
      indexHtml = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    return indexHtml;
  };

  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  router.use(
    '/static',
    express.static(staticDir, { index: false, dotfiles: 'deny', immutable: true, maxAge: '365d', redirect: false }),
    (_req, _res, next) => next('router'), // an unknown file: the app's JSON 404, never the page
  );
  const sendIndex = (req: Request, res: Response) => {
    const html = index();
    res.setHeader('Cache-Control', 'no-cache');
    if (html === null) return void res.status(503).type('html').send(NOT_BUILT);
    res.type('html').send(req.method === 'HEAD' ? '' : html);
  };
  // every other page of the app (the API under /console/v1 is mounted before this router)
  router.get(/^(?!\/v1(\/|$)).*/, sendIndex);
  return router;
}
