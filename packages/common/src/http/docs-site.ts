// The /docs site of each API (docs/guides/quick-start.md "Docs site"): an interactive reference rendered in the
// browser by Swagger UI from the service's own OpenAPI document, and the Markdown guides in docs/ rendered as
// pages. Everything is served from this process — Swagger UI's files from the swagger-ui-dist package — so the
// pages work with no internet access and under a CSP that allows nothing but this origin.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { GUIDE_PAGES, createGuideRenderer, escapeHtml } from './docs-guides';

export { GUIDE_PAGES, createGuideRenderer, escapeHtml, headingId, type GuidePage } from './docs-guides';

export interface DocsSiteOptions {
  /** shown in the page titles and the header */
  title: string;
  /** where this service serves its OpenAPI document (same origin), e.g. `/v1/openapi.json` */
  openapiPath: string;
  /** the folder holding the Markdown guides; defaults to the repository's docs/ (also copied into the image) */
  docsDir?: string;
}

/**
 * The reference page runs Swagger UI's bundle and our initializer, both external scripts from this origin:
 * no inline script, no eval, no third-party host. Swagger UI sets element styles through the DOM (allowed by
 * style-src 'self') and draws its icons as inline SVG; data: images are its only other need.
 */
export const DOCS_REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Guide pages are static HTML with one stylesheet: no script at all. */
export const DOCS_GUIDE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/**
 * The nearest docs/ folder holding the guides, walking up from this file: the repository's in a checkout
 * (src/http or dist/http, four levels down) and /app/docs in the image, where this package sits deeper, inside
 * a service's pruned node_modules (infra/docker/Dockerfile).
 */
function findDocsDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'docs');
    if (existsSync(path.join(candidate, 'guides', 'quick-start.md'))) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../../../docs');
  }
}
const DEFAULT_DOCS_DIR = findDocsDir(__dirname);

/** Swagger UI reads its settings here; the document URL comes from the page's data attribute. */
const REFERENCE_INITIALIZER = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    domNode: root,
    deepLinking: false,
    // the public validator badge would send the document to validator.swagger.io: off
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    tryItOutEnabled: false
  });
});
`;

const SITE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
header{display:flex;align-items:center;gap:1rem;padding:.75rem 1.5rem;background:#0f2a44;color:#fff}
header a{color:#fff;text-decoration:none;font-weight:600}
.layout{display:flex;min-height:calc(100vh - 3.2rem)}
nav{flex:0 0 16rem;padding:1rem 1.25rem;border-right:1px solid #d0d7de;background:#f6f8fa}
nav h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:#57606a;margin:1rem 0 .4rem}
nav ul{list-style:none;margin:0;padding:0}
nav li a{display:block;padding:.2rem 0;color:#0969da;text-decoration:none}
nav li a[aria-current=page]{font-weight:700;color:#1f2328}
main{flex:1;min-width:0;padding:1rem 2rem 3rem;max-width:64rem}
main.reference{max-width:none;padding:0 1rem}
.guide pre{background:#f6f8fa;padding:.8rem 1rem;overflow:auto;border-radius:6px;font-size:.85rem;line-height:1.45}
.guide code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.guide :not(pre)>code{background:#eff1f3;padding:.1em .3em;border-radius:4px}
.guide table{border-collapse:collapse;margin:1rem 0;display:block;overflow:auto}
.guide th,.guide td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:left;vertical-align:top}
.guide h1,.guide h2,.guide h3{line-height:1.25}
.guide h2{border-bottom:1px solid #d0d7de;padding-bottom:.3rem;margin-top:2rem}
.guide a{color:#0969da}
.guide .align-left{text-align:left}.guide .align-center{text-align:center}.guide .align-right{text-align:right}
.guide blockquote{margin:0;padding:0 1rem;color:#57606a;border-left:.25rem solid #d0d7de}
`;

/** Files the site serves under /docs/assets: Swagger UI's from its package, ours from this module. */
const ASSETS: Record<string, { type: string; body: () => Buffer }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: once(() => readFileSync(swaggerFile('swagger-ui.css'))) },
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    body: once(() => readFileSync(swaggerFile('swagger-ui-bundle.js'))),
  },
  'reference.js': { type: 'text/javascript; charset=utf-8', body: once(() => Buffer.from(REFERENCE_INITIALIZER)) },
  'site.css': { type: 'text/css; charset=utf-8', body: once(() => Buffer.from(SITE_CSS)) },
};

function swaggerFile(name: string): string {
  return path.join(SWAGGER_UI_DIR, name);
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

function layout(opts: {
  siteTitle: string;
  pageTitle: string;
  basePath: string;
  current: string;
  head: string;
  main: string;
  mainClass?: string;
}): string {
  const link = (href: string, title: string, key: string) =>
    `<li><a href="${escapeHtml(href)}"${key === opts.current ? ' aria-current="page"' : ''}>${escapeHtml(title)}</a></li>`;
  const guides = GUIDE_PAGES.map((p) => link(`${opts.basePath}/guides/${p.slug}`, p.title, p.slug)).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.pageTitle)} · ${escapeHtml(opts.siteTitle)}</title>
<link rel="stylesheet" href="${escapeHtml(opts.basePath)}/assets/site.css">
${opts.head}
</head>
<body>
<header><a href="${escapeHtml(opts.basePath)}">${escapeHtml(opts.siteTitle)} · docs</a></header>
<div class="layout">
<nav aria-label="Documentation">
<h2>Reference</h2><ul>${link(opts.basePath, 'API reference', 'reference')}</ul>
<h2>Guides</h2><ul>${guides}</ul>
</nav>
<main${opts.mainClass ? ` class="${opts.mainClass}"` : ''}>
${opts.main}
</main>
</div>
</body>
</html>
`;
}

function sendHtml(res: Response, csp: string, html: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}

/**
 * The /docs router. Mount it with `app.use('/docs', docsSite({ … }))` before the 404 handler; paths it does not
 * know fall through to the app's JSON 404.
 */
export function docsSite(options: DocsSiteOptions): Router {
  const docsDir = options.docsDir ?? DEFAULT_DOCS_DIR;
  const router = Router({ caseSensitive: true, strict: false });
  const rendered = new Map<string, string>();

  router.get('/', (req: Request, res: Response) => {
    const basePath = req.baseUrl;
    sendHtml(
      res,
      DOCS_REFERENCE_CSP,
      layout({
        siteTitle: options.title,
        pageTitle: 'API reference',
        basePath,
        current: 'reference',
        head: `<link rel="stylesheet" href="${escapeHtml(basePath)}/assets/swagger-ui.css">
<script src="${escapeHtml(basePath)}/assets/swagger-ui-bundle.js" defer></script>
<script src="${escapeHtml(basePath)}/assets/reference.js" defer></script>`,
        main: `<div id="swagger-ui" data-openapi="${escapeHtml(options.openapiPath)}"><noscript>The interactive reference needs JavaScript; the document itself is at <a href="${escapeHtml(options.openapiPath)}">${escapeHtml(options.openapiPath)}</a>.</noscript></div>`,
        mainClass: 'reference',
      }),
    );
  });

  router.get('/assets/:file', (req: Request, res: Response, next) => {
    const asset = Object.hasOwn(ASSETS, String(req.params.file)) ? ASSETS[String(req.params.file)] : undefined;
    if (!asset) return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type(asset.type).send(asset.body());
  });

  router.get('/guides/:slug', (req: Request, res: Response, next) => {
    const page = GUIDE_PAGES.find((p) => p.slug === req.params.slug);
    if (!page) return next();
    const basePath = req.baseUrl;
    let html = rendered.get(`${basePath} ${page.slug}`);
    if (html === undefined) {
      let markdown: string;
      try {
        markdown = readFileSync(path.join(docsDir, page.file), 'utf8');
      } catch {
        return next(); // an image built without docs/: a 404, not a 500
      }
      const render = createGuideRenderer(basePath);
      html = layout({
        siteTitle: options.title,
        pageTitle: page.title,
        basePath,
        current: page.slug,
        head: '',
        main: render(markdown, page.file),
        mainClass: 'guide',
      });
      rendered.set(`${basePath} ${page.slug}`, html);
    }
    sendHtml(res, DOCS_GUIDE_CSP, html);
  });

  return router;
}
