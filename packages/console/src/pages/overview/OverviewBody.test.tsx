// The Overview's cards as rendered (react-dom/server) from a GET /v1/overview answer: the numbers come from the API
// and are formatted, the intrinsic counts show only when triage moved them, days without changes are left out,
// and names are rendered as text.
import { renderToStaticMarkup } from 'react-dom/server';
import type { Overview } from '../../api/types';
import { RouterProvider } from '../../app/router';
import { OverviewBody, riskChangeBars } from './OverviewBody';

const zeros = { critical: 0, high: 0, medium: 0, low: 0, informational: 0 };
const overview: Overview = {
  object: 'overview',
  livemode: true,
  generated: 1_795_339_255,
  assets: {
    total: 12_345,
    scored: 12_000,
    by_intrinsic_severity: { ...zeros, critical: 1_500, high: 2 },
    by_effective_severity: { ...zeros, critical: 1_499, high: 2, informational: 1 },
  },
  score_histogram: Array.from({ length: 10 }, (_, i) => ({
    from: i * 10,
    to: i === 9 ? 100 : i * 10 + 9,
    intrinsic: i,
    effective: i === 9 ? 2_500 : i,
  })),
  risk_changes: {
    days: 3,
    data: [
      { day: '2026-11-22', changes: 0, up: 0, down: 0 },
      { day: '2026-11-23', changes: 1_200, up: 1_000, down: 200 },
      { day: '2026-11-24', changes: 3, up: 1, down: 2 },
    ],
  },
  top_rules: [{ rule_id: 'R01', assets: 4_321 }],
  top_attack_techniques: [{ id: 'AML.T0010', assets: 1 }],
  recent_threats: [
    {
      id: 'thr_1',
      title: '<img src=x onerror=alert(1)>',
      severity: 'high',
      category: 'malicious_model',
      matched_assets: 2,
      last_matched: 1_795_339_000,
    },
  ],
  enrichment_backlog: { pending: 1_024, failed: 0, stale: 7 },
};

// the router reads the location once when it renders (no effects run on the server)
Object.assign(globalThis, { window: { location: { pathname: '/console/', search: '' } } });
const render = (o: Overview) =>
  renderToStaticMarkup(
    <RouterProvider>
      <OverviewBody overview={o} />
    </RouterProvider>,
  );

describe('OverviewBody', () => {
  const html = render(overview);

  it('shows the API figures formatted', () => {
    expect(html).toContain('12,345 assets observed, 12,000 scored.');
    expect(html).toContain('1,499');
    expect(html).toContain('2,500');
    expect(html).toContain('4,321 assets');
    expect(html).toContain('1,024');
    expect(html).toContain('1,203 in the last 3 days (UTC): 1,001 up, 202 down.');
  });

  it('shows the counts before triage when triage moved them', () => {
    expect(html).toContain('Before triage: critical 1,500 · high 2');
    const untouched = {
      ...overview,
      assets: { ...overview.assets, by_effective_severity: overview.assets.by_intrinsic_severity },
    };
    expect(render(untouched)).not.toContain('Before triage');
  });

  it('renders names as text and links the threat', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('href="/console/threats/thr_1"');
  });
});

describe('riskChangeBars', () => {
  it('keeps the days with changes, oldest first, with the totals', () => {
    const r = riskChangeBars(overview.risk_changes);
    expect(r.bars.map((b) => [b.label, b.value, b.className])).toEqual([
      ['2026-11-23', 1_200, 'bar-high'],
      ['2026-11-24', 3, 'bar-low'],
    ]);
    expect([r.total, r.up, r.down]).toEqual([1_203, 1_001, 202]);
  });
});
