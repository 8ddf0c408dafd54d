import data from '../src/data/mcp-servers.json';
import listing from '../src/data/known-servers.json';
import { analyze } from '../src/index';
import { isKnownServerWith, KNOWN_SERVERS, knownServers, listedServer, nameTokens } from '../src/rules/signals/servers';
import { typosquatTarget } from '../src/rules/signals/publisher';
import { input } from './helpers';

const CAPS = new Set(['filesystem_read', 'filesystem_write', 'network_egress', 'browser']);

/** A Claude Desktop config with one server. */
const config = (name: string, command: string, args: string[]) =>
  input({ asset_type: 'mcp_server', raw_manifest: JSON.stringify({ mcpServers: { [name]: { command, args } } }) });
const rules = (i: ReturnType<typeof input>) => analyze(i).findings.map((f) => f.rule_id);

describe('well-known MCP servers data file', () => {
  it('is well-formed: unique ids and packages, known capabilities, a source', () => {
    expect(data._source).toMatch(/modelcontextprotocol\/servers/);
    expect(new Set(KNOWN_SERVERS.map((s) => s.id)).size).toBe(KNOWN_SERVERS.length);
    const pkgs = KNOWN_SERVERS.flatMap((s) => s.packages);
    expect(new Set(pkgs).size).toBe(pkgs.length);
    for (const s of KNOWN_SERVERS) {
      expect(s.packages.length + s.names.length).toBeGreaterThan(0);
      expect(s.capabilities.length).toBeGreaterThan(0);
      for (const c of s.capabilities) expect(CAPS.has(c)).toBe(true);
      for (const p of s.packages) expect(p).toBe(p.toLowerCase());
    }
  });

  it('finds a server by its published package (with or without a version) or by a whole name token', () => {
    expect(knownServers('@modelcontextprotocol/server-filesystem@2025.8.21').map((s) => s.id)).toEqual(['filesystem']);
    expect(knownServers('mcp-server-fetch==2025.4.7').map((s) => s.id)).toEqual(['fetch']);
    expect(knownServers('mcp/playwright:latest').map((s) => s.id)).toEqual(['playwright']);
    expect(knownServers('@playwright/mcp@latest').map((s) => s.id)).toEqual(['playwright']);
    expect(knownServers('my-brave-search-proxy').map((s) => s.id)).toEqual(['brave-search']);
    // whole tokens only: a substring is not the server
    expect(knownServers('digit-tools')).toEqual([]);
    expect(knownServers('fetcher')).toEqual([]);
    expect(knownServers('brave')).toEqual([]);
    expect(nameTokens('@Scope/Server_FS.v1:tag')).toEqual(['scope', 'server', 'fs', 'v1', 'tag']);
  });

  it('answers capability questions from the data', () => {
    expect(isKnownServerWith('@modelcontextprotocol/server-filesystem', ['filesystem_write'])).toBe(true);
    expect(isKnownServerWith('@modelcontextprotocol/server-filesystem', ['network_egress'])).toBe(false);
    expect(isKnownServerWith('@modelcontextprotocol/server-puppeteer', ['browser'])).toBe(true);
    expect(isKnownServerWith('some-weather-server', ['network_egress', 'filesystem_write'])).toBe(false);
  });

  it('drives R18/R19 in a client config: a listed server gets its capabilities, an unknown one none', () => {
    expect(rules(config('files', 'npx', ['-y', '@modelcontextprotocol/server-filesystem', './project']))).toContain(
      'R18',
    );
    expect(rules(config('web', 'uvx', ['mcp-server-fetch']))).toContain('R19');
    const unknown = rules(config('weather', 'npx', ['-y', 'weather-forecast-server']));
    expect(unknown).not.toContain('R18');
    expect(unknown).not.toContain('R19');
  });

  it('reads filesystem roots only from servers the data says take roots as arguments', () => {
    const r18 = (i: ReturnType<typeof input>) => analyze(i).findings.find((f) => f.rule_id === 'R18');
    const home = r18(config('files', 'npx', ['-y', '@modelcontextprotocol/server-filesystem', '/Users/alice']));
    expect(home?.evidence.broad_roots).toEqual(['/Users/alice']);
    expect(home?.title).toMatch(/home directory/);
    // the git server's repository argument is one repository, not a filesystem root
    const git = r18(config('git', 'uvx', ['mcp-server-git', '--repository', '/Users/alice']));
    expect(git?.evidence.broad_roots).toEqual([]);
    expect(git?.title).not.toMatch(/home directory/);
  });

  it('credentials next to a well-known egress server is a toxic combination (R29); either alone is not', () => {
    const github = {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}' },
    };
    const fetch = { command: 'uvx', args: ['mcp-server-fetch==2025.4.7'] };
    const r29 = (servers: Record<string, unknown>) =>
      analyze(input({ asset_type: 'agent', raw_manifest: JSON.stringify({ mcpServers: servers }) })).findings.filter(
        (f) => f.rule_id === 'R29',
      );
    const both = r29({ github, fetch });
    expect(both.map((f) => [f.title, f.severity])).toEqual([['Credentials next to network egress', 'medium']]);
    expect(both[0]?.evidence.combines).toEqual([
      expect.objectContaining({ rule_id: 'R20' }),
      expect.objectContaining({ rule_id: 'R19' }),
    ]);
    expect(r29({ github })).toEqual([]);
    expect(r29({ fetch })).toEqual([]);
  });
});

describe('listed MCP servers data file (public listings)', () => {
  const LISTED_CAPS = new Set([...CAPS, 'shell', 'payments', 'messaging', 'infrastructure', 'installs_servers']);

  it('has several hundred entries, each with its listing source and capabilities derived from its description', () => {
    expect(listing.servers.length).toBeGreaterThanOrEqual(300);
    expect(new Set(listing.servers.map((s) => s.id)).size).toBe(listing.servers.length);
    for (const s of listing.servers) {
      expect(s.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(s.source.path).toBeTruthy();
      expect(s.capabilities_from).toBe('description');
      expect(s.publisher).toBeTruthy();
      for (const c of s.capabilities) expect(LISTED_CAPS.has(c)).toBe(true);
      for (const p of s.packages) expect(p.source.repo).toBeTruthy();
    }
    // the vendors' own integrations and the reference servers are marked official; community ones are not
    expect(listing.servers.filter((s) => s.official).length).toBeGreaterThan(100);
    expect(listing.servers.filter((s) => !s.official).length).toBeGreaterThan(200);
  });

  it('finds a listed server by its exact published name (any version) or its repository, never by likeness', () => {
    expect(listedServer('firecrawl-mcp@1.7.0')?.publisher).toBe('mendableai');
    expect(listedServer('git+https://github.com/mendableai/firecrawl-mcp-server.git')?.name).toBe('Firecrawl');
    expect(listedServer('docker.io/grafana/mcp-grafana:latest')?.publisher).toBe('grafana');
    expect(listedServer('@anaisbetts/mcp-installer')?.capabilities).toEqual(['installs_servers']);
    // PyPI names compare in their PEP 503 form: the listing's `uns_mcp` is what `uvx uns-mcp` runs
    expect(listedServer('uns-mcp==0.1.6')?.publisher).toBe('unstructured-io');
    // a monorepo holds several servers: its URL names none of them
    expect(listedServer('https://github.com/modelcontextprotocol/servers')).toBeNull();
    // a look-alike is not the listed server: it stays a typosquat question (R15)
    expect(listedServer('firecrawl-mcq')).toBeNull();
    expect(listedServer('firecrawl-mcp-server')).toBeNull();
    expect(typosquatTarget('modelcontextprotocol-servers')).toBeNull();
  });

  it('gives a listed server its capabilities in a client config (R19 for a scraper, R18 for a file server)', () => {
    expect(isKnownServerWith('firecrawl-mcp', ['network_egress'])).toBe(true);
    expect(isKnownServerWith('airtable-mcp-server', ['network_egress', 'filesystem_write'])).toBe(false);
    expect(rules(config('crawl', 'npx', ['-y', 'firecrawl-mcp@1.7.0']))).toContain('R19');
    const db = rules(config('airtable', 'npx', ['-y', 'airtable-mcp-server@1.7.2']));
    expect(db).not.toContain('R18');
    expect(db).not.toContain('R19');
  });
});
