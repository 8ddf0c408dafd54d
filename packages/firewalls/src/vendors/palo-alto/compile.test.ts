// PAN-OS compiler: our first-match rules → custom URL categories + a URL filtering profile in which the
// strictest matching category wins. The tests evaluate the compiled objects the way PAN-OS does and compare
// with our reference evaluator.
import { aiCategories } from '../../categories';
import { panDbNames, panGranularAiCategory, panPredefinedCategories } from './pan-db';
import { compilePanos, PolicyTranslationError, type PanCompiledPolicy } from './compile';
import { ACTION_STRICTNESS, domainPatternMatches, evaluatePolicy, type FilterAction } from '../../policy/policy-model';
import { policy, rule } from '../../policy/policy-fixtures';

/** PAN-OS: custom categories first (strictest among the matching ones), then predefined ones (strictest). */
function panEvaluate(compiled: PanCompiledPolicy, host: string, predefined: string[] = []): FilterAction {
  const actionOf = (name: string) =>
    (['block', 'alert', 'allow'] as const).find((a) => compiled.profile[a].includes(name))!;
  const strictest = (actions: FilterAction[]) =>
    actions.reduce((best, a) => (ACTION_STRICTNESS[a] > ACTION_STRICTNESS[best] ? a : best));
  const custom = compiled.customCategories
    .filter((c) => c.members.some((m) => domainPatternMatches(m, host)))
    .map((c) => actionOf(c.name));
  if (custom.length) return strictest(custom);
  return strictest((predefined.length ? predefined : ['unknown']).map(actionOf));
}

describe('compilePanos', () => {
  it('keeps first-match meaning for domains, wildcards and AI categories', () => {
    const p = policy([
      rule('allow', { domains: ['chatgpt.com'] }),
      rule('block', { categories: ['ai-chat-assistant'] }),
      rule('alert', { domains: ['*.internal-ai.example'] }),
    ]);
    const compiled = compilePanos(p);
    for (const host of [
      'chatgpt.com',
      'www.chatgpt.com',
      'claude.ai',
      'chat.openai.com',
      'a.internal-ai.example',
      'internal-ai.example',
      'example.org',
    ]) {
      const ours = evaluatePolicy(p, {
        host,
        categories: aiCategories
          .filter((c) => c.domains.some((d) => host === d || host.endsWith(`.${d}`)))
          .map((c) => c.id),
        risk_score: 0,
      }).action;
      expect([host, panEvaluate(compiled, host)]).toEqual([host, ours]);
    }
  });

  it('one custom URL category per rule; wildcards kept; AI categories expand to each domain and its subdomains', () => {
    const compiled = compilePanos(
      policy([
        rule('block', { domains: ['*.example.com', 'exact.example.net'] }),
        rule('alert', { categories: ['ai-code-assistant'] }),
      ]),
    );
    expect(compiled.customCategories).toHaveLength(2);
    expect(compiled.customCategories[0]).toMatchObject({
      name: 'rk-ghijklmnop-r1',
      members: ['*.example.com', 'exact.example.net'],
      action: 'block',
    });
    const code = aiCategories.find((c) => c.id === 'ai-code-assistant')!;
    expect(compiled.customCategories[1]!.members).toEqual(code.domains.flatMap((d) => [d, `*.${d}`]));
    expect(compiled.profile.block).toContain('rk-ghijklmnop-r1');
    expect(compiled.profile.alert).toContain('rk-ghijklmnop-r2');
    for (const c of compiled.customCategories) expect(c.name.length).toBeLessThanOrEqual(31);
    expect(compiled.profileName.length).toBeLessThanOrEqual(31);
  });

  it('drops patterns an earlier rule already covers, and a rule left with none gets no custom category', () => {
    const compiled = compilePanos(
      policy([
        rule('block', { domains: ['*.example.com'] }),
        rule('allow', { domains: ['www.example.com', '*.a.example.com'] }),
        rule('allow', { domains: ['www.example.com', 'other.example'] }),
      ]),
    );
    expect(compiled.customCategories.map((c) => [c.name.split('-').pop(), c.members])).toEqual([
      ['r1', ['*.example.com']],
      ['r3', ['other.example']],
    ]);
  });

  it('an earlier exception with a less strict action overlapped by a later stricter rule is untranslatable', () => {
    expect(() =>
      compilePanos(
        policy([rule('allow', { domains: ['chat.openai.com'] }), rule('block', { domains: ['*.openai.com'] })]),
      ),
    ).toThrow(PolicyTranslationError);
    expect(() =>
      compilePanos(
        policy([rule('alert', { domains: ['api.example.com'] }), rule('block', { domains: ['*.example.com'] })]),
      ),
    ).toThrow(/stricter action/);
    // the other way round is expressible: the stricter earlier rule also wins on PAN-OS
    const ok = compilePanos(
      policy([rule('block', { domains: ['chat.openai.com'] }), rule('allow', { domains: ['*.openai.com'] })]),
    );
    expect(panEvaluate(ok, 'chat.openai.com')).toBe('block');
    expect(panEvaluate(ok, 'api.openai.com')).toBe('allow');
  });

  it('general categories map to PAN-DB names; the first rule to claim a name wins; the rest take the default action', () => {
    const gambling = panDbNames('gambling');
    expect(gambling.length).toBeGreaterThan(0);
    const compiled = compilePanos(
      policy(
        [rule('alert', { categories: ['gambling'] }), rule('block', { categories: ['gambling', 'malware'] })],
        'block',
      ),
    );
    for (const name of gambling) expect(panEvaluate(compiled, 'casino.example', [name])).toBe('alert');
    const all = [...compiled.profile.allow, ...compiled.profile.alert, ...compiled.profile.block];
    for (const name of panPredefinedCategories) expect(all.filter((x) => x === name)).toHaveLength(1);
    expect(compiled.profile.allow).toEqual([]);
  });

  it('the AI parent category claims every granular AI PAN-DB category', () => {
    const compiled = compilePanos(policy([rule('block', { categories: ['artificial-intelligence'] })]));
    for (const c of aiCategories) expect(compiled.profile.block).toContain(panGranularAiCategory(c.id));
    expect(compiled.profile.block).toContain('artificial-intelligence');
  });

  it('skips disabled rules and warns that min_risk_score is not pushed', () => {
    const compiled = compilePanos(
      policy([
        rule('block', { domains: ['a.example'], enabled: false }),
        rule('alert', { domains: ['b.example'], min_risk_score: 60, name: 'risky' }),
      ]),
    );
    expect(compiled.customCategories.map((c) => c.members)).toEqual([['b.example']]);
    expect(compiled.warnings.join(' ')).toMatch(/rule 2 \(risky\): min_risk_score is our own score/);
  });
});

describe('compilePanos: rules on the risk feed (min_asset_severity)', () => {
  const feedPolicy = (over: Partial<Parameters<typeof policy>[0][number]> = {}) => ({
    ...policy([
      rule('allow', { domains: ['docs.example.org'] }),
      rule('block', { min_asset_severity: 'high', ...over }),
    ]),
    feed_base_url: 'https://risk.example.com/',
  });

  it('becomes an External Dynamic List of URLs on the tenant feed, listed under the rule action', () => {
    const compiled = compilePanos(feedPolicy());
    expect(compiled.externalLists).toEqual([
      {
        name: 'rk-ghijklmnop-edl-high',
        url: 'https://risk.example.com/feeds/v1/lists/panos-url/high',
        severity: 'high',
        action: 'block',
        rule_id: expect.any(String),
      },
    ]);
    expect(compiled.profile.block).toContain('rk-ghijklmnop-edl-high');
    expect(compiled.warnings.join(' ')).toContain('strictest');
  });

  it('without FEED_BASE_URL the rule cannot be pushed', () => {
    const p = policy([rule('block', { min_asset_severity: 'critical' })]);
    expect(() => compilePanos(p)).toThrow(PolicyTranslationError);
  });
});
