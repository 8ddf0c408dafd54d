// Well-known MCP servers and what they can do, from src/data/mcp-servers.json
// (docs/enrichment.md R18/R19). Names are compared as whole tokens, never as substrings, so
// `digit-tools` is not `git` and `fetcher` is not `fetch`.
import data from '../../data/mcp-servers.json';

export type ServerCapability = 'filesystem_read' | 'filesystem_write' | 'network_egress' | 'browser';

export interface KnownServer {
  readonly id: string;
  /** published npm/PyPI/Docker names */
  readonly packages: readonly string[];
  /** token sequences (`brave-search` = `brave` then `search`) a name carries when it is this server */
  readonly names: readonly string[];
  readonly capabilities: readonly ServerCapability[];
  /** the server's positional arguments are the filesystem roots it is given */
  readonly roots_in_args: boolean;
  /** the tool names the server publishes (a new tool of another server named like one shadows it, docs/drift.md) */
  readonly tools: readonly string[];
}

export const KNOWN_SERVERS: readonly KnownServer[] = data.servers as KnownServer[];

/** A name's tokens, lowercase, split at `/ @ _ . : -` (a version suffix such as `@1.2.0` becomes its own tokens). */
export function nameTokens(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[/@_.:-]+/)
    .filter(Boolean);
}

const BY_PACKAGE = new Map(KNOWN_SERVERS.flatMap((s) => s.packages.map((p) => [p, s] as const)));

/** `pkg@1.2.3`, `pkg==1.2.3`, `image:tag` → the bare name (a scope's leading `@` is kept). */
function withoutVersion(name: string): string {
  const n = name.trim().toLowerCase();
  const at = n.indexOf('@', 1);
  const cut = [at, n.indexOf('=='), n.lastIndexOf(':')].filter((i) => i > 0);
  return cut.length ? n.slice(0, Math.min(...cut)) : n;
}

function hasSequence(tokens: readonly string[], seq: readonly string[]): boolean {
  for (let i = 0; i + seq.length <= tokens.length; i++) if (seq.every((t, j) => tokens[i + j] === t)) return true;
  return false;
}

/** The well-known servers a package, image, command argument or config key names (by package, then by name token). */
export function knownServers(name: string): KnownServer[] {
  const exact = BY_PACKAGE.get(withoutVersion(name));
  if (exact) return [exact];
  const tokens = nameTokens(name);
  return KNOWN_SERVERS.filter((s) => s.names.some((n) => hasSequence(tokens, nameTokens(n))));
}

/** Whether a name is a well-known server with one of these capabilities. */
export function isKnownServerWith(name: string, caps: readonly ServerCapability[]): boolean {
  return knownServers(name).some((s) => s.capabilities.some((c) => caps.includes(c)));
}

/** Well-known tool name → the ids of the servers that publish it (docs/drift.md, R32). */
export const KNOWN_TOOLS: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const s of KNOWN_SERVERS) for (const t of s.tools) m.set(t, [...(m.get(t) ?? []), s.id]);
  return m;
})();
