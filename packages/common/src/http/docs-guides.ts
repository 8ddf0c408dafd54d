// The guides of the /docs site (docs/guides/quick-start.md "Docs site"): the page table, in reading order,
// and the Markdown renderer that turns docs/*.md into safe HTML with GitHub's heading ids. docs-site.ts
// serves them.
import path from 'node:path';
import MarkdownIt from 'markdown-it';

/** One page of the guides: its URL slug, its title in the navigation, its file under docs/. */
export interface GuidePage {
  slug: string;
  title: string;
  file: string;
}

/** The guides, in reading order, then the reference pages (the same on both APIs: links cross between them). */
export const GUIDE_PAGES: readonly GuidePage[] = [
  { slug: 'quick-start', title: 'Quick start', file: 'guides/quick-start.md' },
  { slug: 'concepts', title: 'Concepts: signal to enriched asset', file: 'guides/concepts.md' },
  { slug: 'auth-and-scopes', title: 'Authentication and scopes', file: 'guides/auth-and-scopes.md' },
  { slug: 'test-mode', title: 'Test mode', file: 'guides/test-mode.md' },
  { slug: 'idempotency', title: 'Idempotency', file: 'guides/idempotency.md' },
  { slug: 'pagination', title: 'Pagination', file: 'guides/pagination.md' },
  { slug: 'expansion', title: 'Expansion', file: 'guides/expansion.md' },
  { slug: 'errors', title: 'Errors', file: 'errors.md' },
  { slug: 'rate-limits', title: 'Rate limits', file: 'guides/rate-limits.md' },
  { slug: 'webhooks', title: 'Webhooks', file: 'webhooks.md' },
  { slug: 'admin-flows', title: 'Admin flows', file: 'admin-api.md' },
  { slug: 'enrichment', title: 'Enrichment engine', file: 'enrichment.md' },
  { slug: 'threats', title: 'Threat intelligence', file: 'threats.md' },
  { slug: 'security', title: 'Security', file: 'security.md' },
  { slug: 'performance', title: 'Performance', file: 'performance.md' },
  { slug: 'scaling', title: 'Scaling', file: 'scaling.md' },
];

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** GitHub's heading ids (lower case, punctuation dropped, spaces to dashes), so links written for GitHub work here. */
export function headingId(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * Markdown to HTML. Raw HTML in the source is escaped (html: false), markdown-it's link validation drops
 * javascript:/vbscript:/file:/data: links, and relative links to other Markdown files are rewritten to the
 * guide that renders them — or dropped to plain text when no guide does (a source file, say).
 */
export function createGuideRenderer(basePath: string, pages: readonly GuidePage[] = GUIDE_PAGES) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  // heading ids as GitHub makes them (a repeated heading gets -1, -2, …), so `page.md#section` links land
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const base = headingId(state.tokens[i + 1]?.content ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      token.attrSet('id', count === 0 ? base : `${base}-${count}`);
    });
  });
  // table column alignment as a class, not markdown-it's style attribute: the guide CSP allows no inline style
  md.core.ruler.push('align_classes', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'th_open' && token.type !== 'td_open') continue;
      const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
      if (!align) continue;
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      token.attrSet('class', `align-${align}`);
    }
  });
  const slugOfFile = new Map(pages.map((p) => [path.posix.normalize(p.file), p.slug]));
  const defaultLinkOpen =
    // eslint-disable-next-line @typescript-eslint/max-params -- markdown-it's renderer rule signature
    md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  // eslint-disable-next-line @typescript-eslint/max-params -- markdown-it's renderer rule signature
  md.renderer.rules.link_open = (tokens, i, options, env: Record<string, unknown> | undefined, self) => {
    const token = tokens[i]!;
    const href = String(token.attrGet('href') ?? '');
    if (/^https?:\/\//i.test(href)) {
      token.attrSet('rel', 'noopener noreferrer');
    } else if (!href.startsWith('#')) {
      const [target = '', hash] = href.split('#', 2);
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(String(env?.file ?? '')), target));
      const slug = slugOfFile.get(file);
      if (slug) token.attrSet('href', `${basePath}/guides/${slug}${hash ? `#${hash}` : ''}`);
      else token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'href');
    }
    return defaultLinkOpen(tokens, i, options, env, self);
  };
  return (markdown: string, file: string): string => md.render(markdown, { file });
}
