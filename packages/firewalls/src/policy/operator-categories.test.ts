// Operator-imported AI categories in the compilers and the re-sync decision (docs/firewalls.md "Category data"):
// with the merged catalog in the model, a rule naming an imported category compiles to its domains on both
// vendors like a shipped one, an operator domain that moved out of a shipped category leaves that category's
// entries, and an import's changed domains name exactly the categories whose domain list changed.
import { AI_PARENT_CATEGORY, buildCategoryCatalog, shippedCatalog } from '../categories';
import { categoriesChangedByImport } from '../sync/resync-policies';
import { compileFortios } from '../vendors/fortinet/compile';
import { compilePanos } from '../vendors/palo-alto/compile';
import { evaluatePolicy, factsForHost, rulePatterns } from './policy-model';
import { policy, rule } from './policy-fixtures';

const catalog = buildCategoryCatalog({
  categories: [{ id: 'ai-acme', name: 'Acme AI', description: '', source: 'operator:acme.csv' }],
  domains: [
    { domain: 'llm.acme.example', category: 'ai-acme', vendor: 'Acme', source: 'operator:acme.csv' },
    // a shipped chat domain the operator files under its own category
    { domain: 'chatgpt.com', category: 'ai-acme', vendor: 'OpenAI', source: 'operator:acme.csv' },
  ],
});

describe('imported AI categories in the compilers', () => {
  const model = { ...policy([rule('block', { categories: ['ai-acme'] })]), catalog };

  it('expand to each domain and its subdomains, on PAN-OS and FortiOS', () => {
    expect(rulePatterns(model, model.rules[0]!).sort()).toEqual(
      ['chatgpt.com', '*.chatgpt.com', 'llm.acme.example', '*.llm.acme.example'].sort(),
    );
    const pan = compilePanos(model);
    expect(pan.customCategories).toEqual([
      expect.objectContaining({
        action: 'block',
        members: expect.arrayContaining(['llm.acme.example', '*.llm.acme.example']),
      }),
    ]);
    expect(pan.profile.block).toContain(pan.customCategories[0]!.name);
    const forti = compileFortios(model);
    expect(forti.entries.filter((e) => e.action === 'block').map((e) => e.url)).toEqual(
      expect.arrayContaining(['llm.acme.example', '*.llm.acme.example']),
    );
  });

  it('without the merged catalog an imported category expands to nothing (the shipped lists alone)', () => {
    expect(rulePatterns({}, model.rules[0]!)).toEqual([]);
    expect(compilePanos({ ...model, catalog: undefined }).customCategories).toEqual([]);
  });

  it('a domain moved to an operator category leaves its shipped category; the evaluator agrees', () => {
    const chat = { ...policy([rule('block', { categories: ['ai-chat-assistant'] })]), catalog };
    expect(rulePatterns(chat, chat.rules[0]!)).not.toContain('chatgpt.com');
    expect(rulePatterns({}, chat.rules[0]!)).toContain('chatgpt.com');
    expect(evaluatePolicy(model, factsForHost('api.llm.acme.example', catalog))).toMatchObject({
      action: 'block',
      matched_on: 'category',
    });
    expect(evaluatePolicy(chat, factsForHost('chatgpt.com', catalog)).matched_on).toBe('default');
    // the AI parent covers the operator's domains too
    const parent = { ...policy([rule('block', { categories: [AI_PARENT_CATEGORY] })]), catalog };
    expect(rulePatterns(parent, parent.rules[0]!)).toContain('llm.acme.example');
  });
});

describe('categoriesChangedByImport', () => {
  const shippedChat = shippedCatalog.aiDomains.find((e) => e.category === 'ai-chat-assistant')!.domain;

  it.each([
    [
      'a new domain',
      [{ domain: 'x.acme.example', category: 'ai-acme', previous: null }],
      ['ai-acme', AI_PARENT_CATEGORY],
    ],
    [
      'a shipped domain re-filed',
      [{ domain: shippedChat, category: 'ai-acme', previous: null }],
      ['ai-acme', 'ai-chat-assistant'],
    ],
    [
      'an operator domain moved between categories',
      [{ domain: 'x.acme.example', category: 'ai-acme', previous: 'ai-other' }],
      ['ai-acme', 'ai-other'],
    ],
    ['nothing changed', [], []],
  ])('%s', (_name, changed, expected) => {
    expect(categoriesChangedByImport(changed)).toEqual([...expected].sort());
  });
});
