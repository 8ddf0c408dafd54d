// FortiOS compiler: our first-match rules → a urlfilter table evaluated in order (block stops, exempt skips
// the rest of web filtering, monitor continues) and FortiGuard category filters.
import { aiCategories } from '../../categories';
import { fortiguardCategoryIds, fortiguardIds } from './fortiguard';
import { compileFortios, type FortiCompiledPolicy } from './compile';
import { domainPatternMatches, evaluatePolicy, type FilterAction } from '../../policy/policy-model';
import { policy, rule } from '../../policy/policy-fixtures';
import { PolicyTranslationError } from '../../policy/translation-error';

/** FortiOS: static URL filter in entry order, then the FortiGuard category of the host. */
function fortiEvaluate(compiled: FortiCompiledPolicy, host: string, fortiguardCategory = 0): FilterAction {
  let monitored = false;
  for (const entry of compiled.entries) {
    if (!domainPatternMatches(entry.url, host)) continue;
    if (entry.action === 'block') return 'block';
    if (entry.action === 'exempt') return 'allow';
    monitored = true;
    break;
  }
  const filter = compiled.filters.find((f) => f.category === fortiguardCategory);
  if (filter?.action === 'block') return 'block';
  return monitored || filter?.action === 'monitor' ? 'alert' : 'allow';
}

const aiFacts = (host: string) => ({
  host,
  categories: aiCategories.filter((c) => c.domains.some((d) => host === d || host.endsWith(`.${d}`))).map((c) => c.id),
  risk_score: 0,
});

describe('compileFortios', () => {
  it('keeps first-match meaning: allow becomes exempt so a later block cannot catch it', () => {
    const p = policy([
      rule('allow', { domains: ['chatgpt.com'] }),
      rule('block', { categories: ['ai-chat-assistant'] }),
      rule('block', { domains: ['*.openai.com'] }),
    ]);
    const compiled = compileFortios(p);
    expect(compiled.entries[0]).toEqual({
      id: 1,
      url: 'chatgpt.com',
      type: 'simple',
      action: 'exempt',
      status: 'enable',
    });
    for (const host of [
      'chatgpt.com',
      'claude.ai',
      'www.claude.ai',
      'api.openai.com',
      'chat.openai.com',
      'example.org',
    ]) {
      expect([host, fortiEvaluate(compiled, host)]).toEqual([host, evaluatePolicy(p, aiFacts(host)).action]);
    }
  });

  it('an order PAN-OS cannot express (allow exception before a broader block) is kept on FortiOS', () => {
    const p = policy([rule('allow', { domains: ['chat.openai.com'] }), rule('block', { domains: ['*.openai.com'] })]);
    const compiled = compileFortios(p);
    expect(compiled.entries.map((e) => [e.url, e.type, e.action])).toEqual([
      ['chat.openai.com', 'simple', 'exempt'],
      ['*.openai.com', 'wildcard', 'block'],
    ]);
    expect(fortiEvaluate(compiled, 'chat.openai.com')).toBe('allow');
    expect(fortiEvaluate(compiled, 'api.openai.com')).toBe('block');
  });

  it('maps alert to monitor, drops shadowed patterns and skips disabled rules', () => {
    const compiled = compileFortios(
      policy([
        rule('alert', { domains: ['*.example.com'] }),
        rule('block', { domains: ['www.example.com', 'other.example'] }),
        rule('block', { domains: ['off.example'], enabled: false }),
      ]),
    );
    expect(compiled.entries.map((e) => [e.id, e.url, e.action])).toEqual([
      [1, '*.example.com', 'monitor'],
      [2, 'other.example', 'block'],
    ]);
  });

  it('general categories become FortiGuard filters: first rule wins, allow has no filter, the rest take the default', () => {
    const gambling = fortiguardIds('gambling');
    const malware = fortiguardIds('malware');
    expect(gambling.length * malware.length).toBeGreaterThan(0);
    const compiled = compileFortios(
      policy(
        [rule('allow', { categories: ['gambling'] }), rule('block', { categories: ['gambling', 'malware'] })],
        'alert',
      ),
    );
    for (const id of gambling) {
      expect(compiled.filters.find((f) => f.category === id)).toBeUndefined();
      expect(fortiEvaluate(compiled, 'casino.example', id)).toBe('allow');
    }
    for (const id of malware)
      expect(compiled.filters.find((f) => f.category === id)).toMatchObject({ action: 'block', log: 'enable' });
    const unclaimed = fortiguardCategoryIds.filter((id) => !gambling.includes(id) && !malware.includes(id));
    for (const id of unclaimed)
      expect(compiled.filters.find((f) => f.category === id)).toMatchObject({ action: 'monitor' });
    expect(compiled.filters.map((f) => f.id)).toEqual(compiled.filters.map((_, i) => i + 1));
  });

  it('warns about monitor falling through to a blocked category, and about min_risk_score', () => {
    const compiled = compileFortios(
      policy([rule('alert', { domains: ['x.example'] }), rule('block', { min_risk_score: 80 })], 'block'),
    );
    expect(compiled.warnings.join(' ')).toMatch(/monitor' continues to the FortiGuard category check/);
    expect(compiled.warnings.join(' ')).toMatch(/min_risk_score is our own score/);
    expect(compiled.tableName).toBe(compiled.profileName);
    expect(compiled.tableName).toMatch(/^rk-[A-Za-z0-9]{1,16}$/);
  });
});

describe('compileFortios: rules on the risk feed (min_asset_severity)', () => {
  it('becomes a remote-category external feed and a category filter with the rule action', () => {
    const compiled = compileFortios({
      ...policy(
        [rule('alert', { min_asset_severity: 'medium' }), rule('block', { min_asset_severity: 'medium' })],
        'block',
      ),
      feed_base_url: 'https://risk.example.com',
    });
    expect(compiled.externalResources).toEqual([
      {
        name: 'rk-feed-medium',
        category: 194,
        resource: 'https://risk.example.com/feeds/v1/lists/fortigate-url/medium',
        severity: 'medium',
        action: 'alert',
      },
    ]);
    expect(compiled.filters).toContainEqual(expect.objectContaining({ category: 194, action: 'monitor' }));
  });

  it('without FEED_BASE_URL the rule cannot be pushed', () => {
    expect(() => compileFortios(policy([rule('block', { min_asset_severity: 'low' })]))).toThrow(
      PolicyTranslationError,
    );
  });
});
