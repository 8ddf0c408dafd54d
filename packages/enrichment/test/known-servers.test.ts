import data from '../src/data/mcp-servers.json';
import { analyze } from '../src/index';
import { isKnownServerWith, KNOWN_SERVERS, knownServers, nameTokens } from '../src/rules/signals/servers';
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
