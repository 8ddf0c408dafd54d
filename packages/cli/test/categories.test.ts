// `pnpm cli categories import <csv>` against a real Postgres: a good file adds categories and domains with their
// source (merged by the admin API with the shipped data); hostile files are refused whole, with line numbers.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCategoryCatalog } from '@risk/firewalls';
import { createTestContext, type TestContext } from '@risk/testing';
import { runCli, CliError } from '../src';

describe('pnpm cli categories import', () => {
  let ctx: TestContext;
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), 'risk-categories-'));
  const csv = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const stored = async () => ({
    categories: await ctx.db.prisma.operatorAiCategory.findMany({ orderBy: { id: 'asc' } }),
    domains: await ctx.db.prisma.operatorAiDomain.findMany({ orderBy: { domain: 'asc' } }),
  });

  beforeAll(async () => {
    ctx = await createTestContext('clicategories');
  });
  afterAll(async () => ctx.close());

  it('imports a good file: new and shipped categories, a quoted vendor, its source on every row', async () => {
    const file = csv(
      'good.csv',
      '\uFEFFdomain,category,vendor,category_name,category_description\r\n' +
        'internal-llm.acme-corp.com,ai-internal,Acme,Internal AI,"Our own models, self-hosted"\r\n' +
        'chat.acme-corp.com,ai-internal,"Acme, Inc.",,\r\n' +
        'Copilot.Example.Org,ai-code-assistant,Example,,\r\n',
    );
    await runCli(['categories', 'import', file, '--source', 'acme-cmdb'], ctx.config, io);
    expect(JSON.parse(out.pop()!)).toEqual({
      imported: true,
      source: 'acme-cmdb',
      categories: 1,
      domains: 3,
      changed_domains: 3,
      changed_categories: ['ai-code-assistant', 'ai-internal', 'artificial-intelligence'],
      resynced_policies: 0,
      resynced_assignments: 0,
    });
    const { categories, domains } = await stored();
    expect(categories).toMatchObject([{ id: 'ai-internal', name: 'Internal AI', source: 'acme-cmdb' }]);
    expect(domains.map((d) => [d.domain, d.category, d.vendor, d.source])).toEqual([
      ['chat.acme-corp.com', 'ai-internal', 'Acme, Inc.', 'acme-cmdb'],
      ['copilot.example.org', 'ai-code-assistant', 'Example', 'acme-cmdb'],
      ['internal-llm.acme-corp.com', 'ai-internal', 'Acme', 'acme-cmdb'],
    ]);
    // merged with the shipped data: the new category lists its domains, the shipped ones keep theirs
    const catalog = buildCategoryCatalog({ categories, domains });
    expect(catalog.aiCategories.find((c) => c.id === 'ai-internal')).toMatchObject({
      source: 'acme-cmdb',
      domains: ['chat.acme-corp.com', 'internal-llm.acme-corp.com'],
    });
    expect(catalog.lookupAiDomain('api.internal-llm.acme-corp.com')).toMatchObject({ source: 'acme-cmdb' });
    expect(catalog.lookupAiDomain('chatgpt.com')).toMatchObject({ source: 'nullgen-ai-blocklist' });
  });

  it('a re-import of the same rows changes no category, so no policy is re-synced', async () => {
    const file = csv('again.csv', 'domain,category,vendor\nchat.acme-corp.com,ai-internal,"Acme, Inc."\n');
    await runCli(['categories', 'import', file, '--source', 'acme-cmdb'], ctx.config, io);
    expect(JSON.parse(out.pop()!)).toMatchObject({ domains: 1, changed_domains: 0, changed_categories: [] });
  });

  it.each([
    [
      'a bad header',
      'host,category\nexample.com,ai-chat-assistant\n',
      /line 1: .*missing: domain, vendor.*unknown: host/,
    ],
    ['an IP address', 'domain,category,vendor\n10.0.0.1,ai-chat-assistant,X\n', /line 2: '10.0.0.1' is not a domain/],
    ['a bare public suffix', 'domain,category,vendor\nco.uk,ai-chat-assistant,X\n', /line 2: 'co.uk' is not a domain/],
    [
      'a duplicate domain',
      'domain,category,vendor\na.example.com,ai-chat-assistant,X\nA.example.com,ai-chat-assistant,Y\n',
      /line 3: a.example.com is already on line 2/,
    ],
    [
      'an unknown category without a name',
      'domain,category,vendor\nb.example.com,ai-brand-new,X\n',
      /line 2: 'ai-brand-new' is a new category/,
    ],
    [
      'a general category',
      'domain,category,vendor\nc.example.com,malware,X\n',
      /line 2: 'malware' is not an AI sub-category/,
    ],
    [
      'a field count mismatch',
      'domain,category,vendor\nd.example.com,ai-chat-assistant\n',
      /line 2: 2 fields, the header has 3/,
    ],
    [
      'an open quote',
      'domain,category,vendor\ne.example.com,ai-chat-assistant,"X\n',
      /line 2: an unterminated quoted field/,
    ],
    [
      'a control character',
      'domain,category,vendor\nf.example.com,ai-chat-assistant,X\u0007Y\n',
      /line 2: a field holds a control character/,
    ],
    ['no rows', 'domain,category,vendor\n', /no rows/],
  ])('refuses %s with its line number and stores nothing', async (_name, text, message) => {
    const before = await stored();
    // a good row first: nothing of the file is stored when a later row is bad
    // a good row as well: nothing of the file is stored when another row is bad
    const body = ['bad header', 'no rows'].some((n) => _name.includes(n))
      ? text
      : `${text}good-row.example.com,ai-chat-assistant,X\n`;
    const promise = runCli(['categories', 'import', csv('bad.csv', body)], ctx.config, io);
    await expect(promise).rejects.toThrow(CliError);
    await expect(promise).rejects.toThrow(message);
    expect(await stored()).toEqual(before);
  });

  it('refuses a missing file and a hostile --source', async () => {
    await expect(runCli(['categories', 'import', path.join(dir, 'nope.csv')], ctx.config, io)).rejects.toThrow(
      /cannot read/,
    );
    const file = csv('ok.csv', 'domain,category,vendor\ng.example.com,ai-chat-assistant,X\n');
    await expect(runCli(['categories', 'import', file, '--source', 'x\ny'], ctx.config, io)).rejects.toThrow(
      /--source/,
    );
  });
});
