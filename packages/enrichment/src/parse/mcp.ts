// MCP formats: client configs (mcpServers/servers), registry server.json, MCPB/DXT manifests, agent configs.
import type { McpServerEntry, ParsedManifest } from '../types';
import { isObj, str, strList, truncate, type Obj } from '../util';
import { append, genericNameVersion, licenseFromValue, toolsFrom } from './common';

function envFrom(v: unknown): Record<string, string> {
  if (!isObj(v)) return {};
  // fromEntries defines every key, `__proto__` included (`out[k] = …` would drop it)
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : x === null || x === undefined ? '' : String(x)]),
  );
}

function serverEntry(name: string, path: string): McpServerEntry {
  return {
    name,
    path,
    command: null,
    args: [],
    env: {},
    url: null,
    transport: null,
    headers: {},
    registry: null,
    identifier: null,
    version: null,
    secretEnv: [],
  };
}

function argValues(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const a of v) {
    if (typeof a === 'string') out.push(a);
    else if (isObj(a)) {
      const n = str(a.name);
      const val = str(a.value) ?? str(a.default) ?? str(a.valueHint) ?? str(a.value_hint);
      if (n && n.startsWith('-')) out.push(n);
      if (val) out.push(val);
    }
  }
  return out;
}

export function parseClientServers(p: ParsedManifest, servers: Obj, base: string): void {
  for (const name of Object.keys(servers).sort()) {
    const s = servers[name];
    if (!isObj(s)) continue;
    const e = serverEntry(name, `${base}.${name}`);
    e.command = str(s.command);
    e.args = strList(s.args);
    e.env = envFrom(s.env);
    e.url = str(s.url) ?? str(s.serverUrl);
    e.transport = str(s.type) ?? str(s.transport) ?? (e.url ? 'http' : 'stdio');
    e.headers = envFrom(s.headers);
    p.servers.push(e);
    append(p.tools, toolsFrom(s.tools, name));
  }
}

export function parseRegistryServer(p: ParsedManifest, j: Obj): void {
  p.name = str(j.name);
  p.description = str(j.description);
  const vd = isObj(j.version_detail) ? j.version_detail : null;
  p.version = str(j.version) ?? (vd ? str(vd.version) : null);
  const repo = isObj(j.repository) ? j.repository : null;
  p.repository_url = repo ? str(repo.url) : null;
  p.homepage = str(j.websiteUrl) ?? str(j.website_url);
  p.mcp_name = p.name;
  const pkgs = Array.isArray(j.packages) ? j.packages : [];
  pkgs.forEach((pk, i) => {
    if (!isObj(pk)) return;
    const e = serverEntry(str(pk.identifier) ?? str(pk.name) ?? `package-${i}`, `packages[${i}]`);
    e.registry = str(pk.registryType) ?? str(pk.registry_type) ?? str(pk.registry_name);
    e.identifier = str(pk.identifier) ?? str(pk.name);
    e.version = str(pk.version);
    e.command = str(pk.runtimeHint) ?? str(pk.runtime_hint);
    e.args = [
      ...argValues(pk.runtimeArguments ?? pk.runtime_arguments),
      ...argValues(pk.packageArguments ?? pk.package_arguments),
    ];
    const tr = isObj(pk.transport) ? pk.transport : null;
    e.transport = tr ? str(tr.type) : 'stdio';
    e.url = tr ? str(tr.url) : null;
    const evs = pk.environmentVariables ?? pk.environment_variables;
    if (Array.isArray(evs)) {
      for (const ev of evs) {
        if (!isObj(ev)) continue;
        const n = str(ev.name);
        if (!n) continue;
        e.env[n] = str(ev.value) ?? str(ev.default) ?? '';
        if (ev.isSecret === true || ev.is_secret === true) e.secretEnv.push(n);
        if (ev.isRequired === false || ev.is_required === false) (e.optionalEnv ??= []).push(n);
      }
    }
    p.servers.push(e);
    if (e.registry === 'npm' && e.identifier)
      p.dependencies.push({ ecosystem: 'npm', name: e.identifier, spec: e.version ?? '*', path: `packages[${i}]` });
    if (e.registry === 'pypi' && e.identifier)
      p.dependencies.push({
        ecosystem: 'pypi',
        name: e.identifier.toLowerCase(),
        spec: e.version ? `==${e.version}` : '',
        path: `packages[${i}]`,
      });
  });
  const remotes = Array.isArray(j.remotes) ? j.remotes : [];
  remotes.forEach((r, i) => {
    if (!isObj(r)) return;
    const e = serverEntry(`remote-${i}`, `remotes[${i}]`);
    e.url = str(r.url);
    e.transport = str(r.type) ?? 'streamable-http';
    if (Array.isArray(r.headers))
      for (const h of r.headers)
        if (isObj(h) && str(h.name)) {
          e.headers[str(h.name) as string] = str(h.value) ?? '';
          if (h.isSecret === true) e.secretEnv.push(str(h.name) as string);
        }
    p.servers.push(e);
  });
  append(p.tools, toolsFrom(j.tools));
}

export function parseAgentExtras(p: ParsedManifest, j: Obj): void {
  genericNameVersion(p, j);
  append(p.tools, toolsFrom(j.tools));
  const agents = Array.isArray(j.agents) ? j.agents : isObj(j.agents) ? Object.values(j.agents) : [];
  for (const a of agents) {
    if (!isObj(a)) continue;
    append(p.tools, toolsFrom(a.tools, str(a.name) ?? undefined));
    const m = str(a.model);
    if (m) p.base_models.push(m);
  }
  const model = str(j.model);
  if (model) p.base_models.push(model);
}

/** MCPB/DXT manifest.json: the bundled server's launch (`server.mcp_config`, or the early `mcp` form) and tools. */
/** A user_config key or title that switches a feature on (`enable_file_operations`, "Allow network access"). */
const SWITCH = /^(?:enable|allow)\b/i;
/**
 * The MCPB `user_config` switches whose default is on: the client fills each option with its default unless the user
 * changes it, so a feature switched on by default is one the bundle declares it uses (MCPB MANIFEST.md "user_config").
 */
function enabledOptions(config: unknown): Array<{ key: string; text: string }> {
  if (!isObj(config)) return [];
  const out: Array<{ key: string; text: string }> = [];
  for (const [key, v] of Object.entries(config).slice(0, 200)) {
    if (!isObj(v) || (v.default !== true && v.default !== 'true')) continue;
    const title = str(v.title) ?? '';
    const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
    if (!SWITCH.test(words) && !SWITCH.test(title)) continue;
    out.push({ key, text: truncate([words, title, str(v.description) ?? ''].join('\n'), 500) });
  }
  return out.slice(0, 50);
}

export function parseMcpbManifest(p: ParsedManifest, j: Obj): void {
  p.name = str(j.name);
  p.version = str(j.version);
  p.description = str(j.description);
  p.licenses = licenseFromValue(j.license);
  // early DXT manifests put the launch under `mcp` with `command: {type, path}` (a shipped binary)
  const srv = isObj(j.server) ? j.server : {};
  const mc = isObj(srv.mcp_config) ? srv.mcp_config : isObj(j.mcp) ? j.mcp : {};
  const e = serverEntry(p.name ?? 'server', isObj(j.server) ? 'server.mcp_config' : 'mcp');
  e.command = str(mc.command) ?? (isObj(mc.command) ? str(mc.command.path) : null);
  e.args = strList(mc.args);
  e.env = envFrom(mc.env);
  e.transport = 'stdio';
  const enabled = enabledOptions(j.user_config);
  if (enabled.length) e.enabledOptions = enabled;
  p.servers.push(e);
  append(p.tools, toolsFrom(j.tools));
  const repo = j.repository;
  p.repository_url = isObj(repo) ? str(repo.url) : str(repo);
  const author = isObj(j.author) ? str(j.author.name) : str(j.author);
  if (author) p.authors = [author];
}
