import { createGuideRenderer, escapeHtml, headingId } from './docs-site';

const render = createGuideRenderer('/docs');

test('raw HTML in a guide is shown as text, never run', () => {
  const html = render('Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>', 'guides/x.md');
  expect(html).not.toContain('<script');
  expect(html).not.toContain('<img');
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
});

test('javascript: and data: links lose their target', () => {
  const html = render('[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x)', 'guides/x.md');
  expect(html).not.toMatch(/href="(javascript|data|vbscript):/i);
});

test('links to Markdown files become guide URLs; unknown files become plain text; external links get rel', () => {
  const html = render(
    '[e](../errors.md#codes) [i](idempotency.md) [s](../packages/sdk/README.md) [x](https://example.com/a)',
    'guides/quick-start.md',
  );
  expect(html).toContain('<a href="/docs/guides/errors#codes">e</a>');
  expect(html).toContain('<a href="/docs/guides/idempotency">i</a>');
  expect(html).toContain('<a>s</a>');
  expect(html).toContain('<a href="https://example.com/a" rel="noopener noreferrer">x</a>');
});

test('headings get GitHub-style ids, repeated ones numbered', () => {
  const html = render('## Redis: shared counters, and more\n\n## Redis: shared counters, and more', 'security.md');
  expect(html).toContain('<h2 id="redis-shared-counters-and-more">');
  expect(html).toContain('<h2 id="redis-shared-counters-and-more-1">');
  expect(headingId('Enrichment worker (`pnpm bench:enrichment`)')).toBe('enrichment-worker-pnpm-benchenrichment');
});

test('table alignment is a class, not an inline style (the guide CSP forbids inline styles)', () => {
  const html = render('| a | b |\n| :- | -: |\n| 1 | 2 |', 'x.md');
  expect(html).not.toContain('style=');
  expect(html).toContain('<th class="align-right">b</th>');
});

test('escapeHtml escapes the five HTML specials', () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
  );
});
