// MCP and agent formats: client configurations, agent configurations, registry server.json, MCPB/DXT bundles and
// tools/list snapshots (docs/enrichment.md "Manifests recognised").
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { append, toolsFrom } from '../parse/common';
import { isPathList } from '../parse/json';
import { parseAgentExtras, parseClientServers, parseMcpbManifest, parseRegistryServer } from '../parse/mcp';
import { defineFormat } from './define';
import type { ManifestDocument } from './document';
import { agentish, clientServerMap, dataObject, fromData, namesAgentOrModel } from './shapes';

export const MCP_CLIENT_CONFIG = defineFormat({
  id: 'mcp_client_config',
  title: 'MCP client configuration',
  family: 'mcp',
  syntax: ['json', 'jsonc', 'yaml'],
  summary:
    "each server under `mcpServers` (Claude Desktop, Cursor, Windsurf, `.mcp.json`; a list in Continue's config), `mcp_servers`, `servers` (VS Code `mcp.json`, JSONC with comments and trailing commas), `mcp.servers` (VS Code `settings.json`) or `context_servers` (Zed): command, args, env, url, transport, headers, tools",
  names: /^(?:\.?mcp|mcp_config|claude_desktop_config|settings|config)\.(?:json|ya?ml)$/i,
  recognise(doc, ctx) {
    const j = dataObject(doc);
    return j && clientServerMap(j) && !namesAgentOrModel(j, ctx.input) ? 0.96 : 0;
  },
  parse: fromData<Obj>((p, j) => {
    const m = clientServerMap(j);
    if (m) parseClientServers(p, m.servers, m.base);
  }),
  carries: ['tools', 'launch_commands', 'environment', 'endpoints'],
  corpus: {
    name: 'mcp_client_config',
    subformats: ['claude_desktop', 'cursor', 'vscode', 'dot_mcp_json', 'windsurf'],
    example: 'c008',
  },
  notes: 'A secret requested at run time (`${input:…}`, `${env:…}`) is a reference, not a value.',
});

/** Front matter that configures MCP servers: an agent file (`---` + `mcpServers` + instructions). */
function agentFrontMatter(doc: ManifestDocument): Obj | null {
  const fm = doc.frontMatter();
  return fm?.data && isObj(fm.data.mcpServers) ? fm.data.mcpServers : null;
}

export const AGENT_CONFIG = defineFormat({
  id: 'agent_config',
  title: 'Agent configuration',
  family: 'mcp',
  syntax: ['json', 'yaml', 'markdown'],
  summary:
    'the MCP servers an agent starts (as a client configuration), its tools, the agents it defines and the models they use; an agent file whose front matter holds `mcpServers`',
  names: null,
  recognise(doc, ctx) {
    if (agentFrontMatter(doc)) return 0.97;
    const j = dataObject(doc);
    if (!j) return 0;
    if (clientServerMap(j)) return namesAgentOrModel(j, ctx.input) ? 0.96 : 0;
    return agentish(j, ctx.input) ? 0.5 : 0;
  },
  parse(p: ParsedManifest, doc: ManifestDocument, input: EnrichmentInput) {
    const fmServers = agentFrontMatter(doc);
    if (fmServers) {
      p.format = 'markdown';
      parseClientServers(p, fmServers, 'mcpServers');
      return;
    }
    fromData<Obj>((q, j) => {
      const m = clientServerMap(j);
      if (m) parseClientServers(q, m.servers, m.base);
      parseAgentExtras(q, j);
    })(p, doc, input);
  },
  carries: ['tools', 'launch_commands', 'environment', 'endpoints'],
  example:
    '{"agents": [{"name": "researcher", "model": "gpt-4o", "tools": [{"name": "web_search"}]}], "mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/"]}}}',
});

/** The registry's server schema (`…modelcontextprotocol.io/schemas/<date>/server.schema.json`), not any schema the
 * project publishes: an MCPB manifest's `$schema` names the modelcontextprotocol/mcpb repository too. */
function registrySchema(schema: string): boolean {
  return schema.includes('modelcontextprotocol') && /\/server(?:\.schema)?\.json$/.test(schema);
}

/** An MCP registry server.json: the registry's `$schema`, or packages/remotes under a namespaced name. */
function isRegistryServer(j: Obj): boolean {
  return (
    registrySchema(str(j.$schema) ?? '') ||
    ((Array.isArray(j.packages) || Array.isArray(j.remotes)) &&
      typeof j.name === 'string' &&
      (j.name.includes('/') || 'version_detail' in j))
  );
}

export const MCP_SERVER_JSON = defineFormat({
  id: 'mcp_server_json',
  title: 'MCP registry server.json',
  family: 'mcp',
  syntax: ['json'],
  summary:
    'name, version, repository, packages (registry, identifier, version, runtime hint and arguments, environment variables and which are secret) and remotes (URL, transport, headers); current and legacy snake_case',
  names: /^server\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && isRegistryServer(j) ? 0.94 : 0;
  },
  parse: fromData<Obj>(parseRegistryServer),
  carries: ['dependencies', 'tools', 'launch_commands', 'environment', 'endpoints'],
  ecosystem: 'mcp',
  corpus: { name: 'mcp_server_json', subformats: ['legacy_registry'], example: 'c090' },
  notes: 'The licence lives in the package it points to, so a missing one is not reported here.',
});

export const MCPB_MANIFEST = defineFormat({
  id: 'mcpb_manifest',
  title: 'MCPB / DXT bundle manifest.json',
  family: 'mcp',
  syntax: ['json'],
  summary:
    "the bundled server's launch (`server.mcp_config`, or the early `mcp.command` form), its tools, licence, author and repository",
  names: /^manifest\.json$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && ('dxt_version' in j || 'manifest_version' in j) && (isObj(j.server) || isObj(j.mcp)) ? 0.93 : 0;
  },
  parse: fromData<Obj>((p, j) => {
    parseMcpbManifest(p, j);
    // the long description is where a bundle says what it gives the agent ("144 tools: elevated PowerShell, …")
    const long = str(j.long_description);
    if (long) p.description = p.description ? `${p.description}\n\n${long}` : long;
  }),
  carries: ['licence', 'tools', 'launch_commands', 'environment', 'artifacts'],
  corpus: { name: 'mcpb_manifest', example: 'c020' },
});

/** Console lines a client prints before the list it received ("Connecting...", "Tools: ["): at most this many. */
const MAX_LEAD_LINES = 5;
const MAX_LEAD_CHARS = 400;
/** A line that opens a JSON value after an optional short label (`Tools: [`, `result = {`, `[`). */
const OPENS_JSON = /^[^[{]{0,80}?([[{])\s*$/;

/**
 * A tools/list result captured from a client's console: a few short log lines, then the JSON it printed. Read when the
 * JSON is nearly all of the text (the lead is at most a few lines), so a document that merely quotes JSON is not taken
 * for one. The lines after the value are not read.
 */
function capturedJson(doc: ManifestDocument): unknown {
  return doc.view('mcp:captured-json', () => {
    if (doc.structured) return undefined;
    const lines = doc.raw
      .slice(0, MAX_LEAD_CHARS + 100)
      .split('\n')
      .slice(0, MAX_LEAD_LINES + 1);
    let at = 0;
    for (const line of lines) {
      const m = OPENS_JSON.exec(line);
      if (m) {
        if (at > MAX_LEAD_CHARS) return undefined;
        const start = at + line.lastIndexOf(m[1]!);
        const close = m[1] === '[' ? ']' : '}';
        const end = doc.raw.lastIndexOf(close);
        if (end <= start) return undefined;
        try {
          return JSON.parse(doc.raw.slice(start, end + 1)) as unknown;
        } catch {
          return undefined;
        }
      }
      at += line.length + 1;
    }
    return undefined;
  });
}

/** The tool definitions of a tools/list snapshot, or null: a bare array, `{tools}` (not an agent's, not a package's) or JSON-RPC `{result: {tools}}`. */
function toolList(doc: ManifestDocument, input: EnrichmentInput): unknown[] | null {
  const j = doc.json()?.value ?? dataObject(doc) ?? capturedJson(doc);
  if (Array.isArray(j))
    return !isPathList(j) &&
      j.some((x) => isObj(x) && typeof x.name === 'string' && ('inputSchema' in x || 'description' in x))
      ? j
      : null;
  if (!isObj(j)) return null;
  if (Array.isArray(j.tools) && !agentish(j, input) && !('name' in j && 'version' in j && 'dependencies' in j))
    return j.tools;
  return isObj(j.result) && Array.isArray(j.result.tools) ? j.result.tools : null;
}

/** A tool whose input schema sits under `parameters` or `schema` (hand-written lists, function-calling exports) read
 * as `inputSchema`, so its parameters count like a tools/list result's. */
function withInputSchema(t: unknown): unknown {
  if (!isObj(t) || 'inputSchema' in t || 'input_schema' in t) return t;
  const schema = isObj(t.parameters) ? t.parameters : isObj(t.schema) ? t.schema : null;
  return schema ? { ...t, inputSchema: schema } : t;
}

export const MCP_TOOLS = defineFormat({
  id: 'mcp_tools',
  title: 'MCP tools/list snapshot',
  family: 'mcp',
  syntax: ['json'],
  summary:
    "each tool's name, description, input schema and annotations (a bare array, `{tools}` or a JSON-RPC result; also as a client printed it, after a few console lines such as `Tools: [`)",
  names: null,
  recognise: (doc, ctx) => {
    const list = toolList(doc, ctx.input);
    if (!list) return 0;
    // a list captured from console output is recognised below any format that reads the text as its own
    return doc.structured ? (Array.isArray(doc.json()?.value) ? 0.9 : 0.91) : 0.8;
  },
  parse(p, doc, input) {
    const captured = doc.structured ? undefined : capturedJson(doc);
    if (captured !== undefined) {
      p.format = 'json';
      p.raw_json = captured;
      append(p.tools, toolsFrom((toolList(doc, input) ?? []).map(withInputSchema)));
      return;
    }
    fromData<unknown>((q) => append(q.tools, toolsFrom((toolList(doc, input) ?? []).map(withInputSchema))))(
      p,
      doc,
      input,
    );
  },
  carries: ['tools'],
  corpus: { name: 'mcp_tools_list', example: 'c018' },
});
