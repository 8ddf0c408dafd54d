// Shared pieces of the format definitions: the data view a JSON/YAML format reads, and the shapes several formats
// look at (MCP server maps, agent keys, package.json keys) so each is written once.
import type { EnrichmentInput, ParsedManifest } from '../types';
import { isObj, type Obj } from '../util';
import type { ManifestDocument } from './document';

/** The document's JSON value or YAML mapping, when it is an object. */
export function dataObject(doc: ManifestDocument): Obj | null {
  const d = doc.data();
  return d && isObj(d.value) ? d.value : null;
}

/** A parse function over the data view: sets the syntax it came from and keeps the value (`raw_json`). */
export function fromData<T>(
  read: (p: ParsedManifest, value: T, input: EnrichmentInput) => void,
): (p: ParsedManifest, doc: ManifestDocument, input: EnrichmentInput) => void {
  return (p, doc, input) => {
    const d = doc.data();
    if (!d) return;
    p.format = d.syntax;
    p.raw_json = d.value;
    read(p, d.value as T, input);
  };
}

/** An entry that launches or reaches a server: a `command` or a `url`. */
const isServerEntry = (s: unknown): s is Obj => isObj(s) && ('command' in s || 'url' in s);

/** Servers given as a list of `{name, command|url, …}` (Continue's `mcpServers`), as a map by name. */
function byName(list: unknown[]): Obj | null {
  const named = list.filter((s): s is Obj => isServerEntry(s) && typeof s.name === 'string');
  return named.length ? Object.fromEntries(named.map((s) => [s.name as string, s])) : null;
}

/** Zed's `context_servers`: `{command: {path, args, env}}` (older settings) flattened to `{command, args, env}`. */
function flattenCommands(servers: Obj): Obj {
  return Object.fromEntries(
    Object.entries(servers).map(([k, s]) =>
      isObj(s) && isObj(s.command) ? [k, { ...s, ...s.command, command: s.command.path }] : [k, s],
    ),
  );
}

/**
 * The MCP server map of a client config and the key it sits under: `mcpServers` (Claude Desktop, Cursor, Windsurf,
 * `.mcp.json`; a list in Continue's config), `mcp_servers`, `servers` (VS Code `mcp.json`), `mcp.servers` (VS Code
 * settings.json) or `context_servers` (Zed settings).
 */
export function serverMap(j: Obj): { servers: Obj; base: string } | null {
  if (isObj(j.mcpServers)) return { servers: j.mcpServers, base: 'mcpServers' };
  if (Array.isArray(j.mcpServers)) {
    const servers = byName(j.mcpServers);
    if (servers) return { servers, base: 'mcpServers' };
  }
  if (isObj(j.mcp_servers)) return { servers: j.mcp_servers, base: 'mcp_servers' };
  if (isObj(j.servers) && Object.values(j.servers).some(isServerEntry)) return { servers: j.servers, base: 'servers' };
  if (isObj(j.mcp) && isObj(j.mcp.servers) && Object.values(j.mcp.servers).some(isServerEntry))
    return { servers: j.mcp.servers, base: 'mcp.servers' };
  if (isObj(j.context_servers)) {
    const servers = flattenCommands(j.context_servers);
    if (Object.values(servers).some(isServerEntry)) return { servers, base: 'context_servers' };
  }
  return null;
}

/** A server map that is not a registry `server.json` (whose `packages` describe how to install it). */
export function clientServerMap(j: Obj): { servers: Obj; base: string } | null {
  return 'packages' in j ? null : serverMap(j);
}

/** A configuration of an agent rather than of an MCP client: it names agents or a model. */
export function namesAgentOrModel(j: Obj, input: EnrichmentInput): boolean {
  return input.asset_type === 'agent' || 'agents' in j || 'model' in j;
}

/** Keys only an agent definition has (instructions, a system prompt, a model name). */
export function agentish(j: Obj, input: EnrichmentInput): boolean {
  return (
    input.asset_type === 'agent' ||
    'agents' in j ||
    'instructions' in j ||
    'system_prompt' in j ||
    ('model' in j && typeof j.model === 'string')
  );
}

/** package.json keys: a name and any of version, dependencies, scripts. */
export function looksLikePackageJson(j: Obj): boolean {
  return (
    typeof j.name === 'string' && ('version' in j || 'dependencies' in j || 'scripts' in j || 'devDependencies' in j)
  );
}
