// Well-known MCP servers and what they can do: the curated reference servers of src/data/mcp-servers.json (names
// compared as whole tokens, never as substrings, so `digit-tools` is not `git` and `fetcher` is not `fetch`) and the
// servers of public listings in src/data/known-servers.json (matched only by an exact published name or repository,
// so a look-alike name stays R15's to judge). docs/enrichment.md R18/R19 and "Data files".
import data from '../../data/mcp-servers.json';
import listed from '../../data/known-servers.json';

/** What a server can do, in the capability rules' terms (R17 shell, R18 filesystem, R19 network/payments/messaging). */
export type ServerCapability =
  | 'filesystem_read'
  | 'filesystem_write'
  | 'network_egress'
  | 'browser'
  | 'shell'
  | 'payments'
  | 'messaging'
  | 'infrastructure'
  | 'installs_servers';

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

/** A server of a public listing (src/data/known-servers.json, built by scripts/build-known-servers.ts). */
export interface ListedServer {
  readonly id: string;
  readonly name: string;
  /** the listing's GitHub owner (or host) of the server */
  readonly publisher: string;
  /** a reference server or an integration its vendor maintains (not a community server) */
  readonly official: boolean;
  readonly repository: string | null;
  readonly packages: ReadonlyArray<{ readonly registry: string; readonly name: string }>;
  /** derived from the listing's description only */
  readonly capabilities: readonly ServerCapability[];
}

/** A PyPI name in its normal form (PEP 503): lowercase, runs of `-_.` as one `-`. */
const pep503 = (n: string): string => n.toLowerCase().replace(/[-_.]+/g, '-');

/** Published names and repositories → listed server, built on first use (the engine's hot path loads it once). */
let listedIndex: ReadonlyMap<string, ListedServer> | null = null;
function listedByKey(): ReadonlyMap<string, ListedServer> {
  if (listedIndex) return listedIndex;
  const m = new Map<string, ListedServer>();
  const servers = listed.servers as unknown as ListedServer[];
  const perRepo = new Map<string, number>();
  for (const s of servers)
    if (s.repository) perRepo.set(repoKey(s.repository)!, (perRepo.get(repoKey(s.repository)!) ?? 0) + 1);
  for (const s of servers) {
    for (const p of s.packages) {
      // PyPI names compare in their normal form (PEP 503): `uns_mcp` is `uns-mcp`
      const key = p.registry === 'pypi' ? pep503(p.name) : p.name;
      if (!m.has(key)) m.set(key, s);
    }
    // a repository holding several listed servers (a monorepo) names none of them
    const r = s.repository ? repoKey(s.repository) : null;
    if (r && perRepo.get(r) === 1) m.set(r, s);
  }
  listedIndex = m;
  return m;
}

/** `https://github.com/Owner/Repo(.git)(/…)`, `git+https://…`, `github:Owner/Repo` → `github.com/owner/repo`. */
function repoKey(url: string): string | null {
  // the host found by a substring search, the owner/repo read by an anchored pattern from there (linear)
  const at = url.toLowerCase().indexOf('github.com');
  const m =
    (at >= 0 ? /^github\.com[/:]([\w.-]{1,100})\/([\w.-]{1,100})/i.exec(url.slice(at)) : null) ??
    /^github:([\w.-]{1,100})\/([\w.-]{1,100})/i.exec(url);
  return m ? `github.com/${m[1]!.toLowerCase()}/${m[2]!.toLowerCase().replace(/\.git$/, '')}` : null;
}

/**
 * The listed server a package, image, command argument or repository URL names exactly (a version, tag or
 * `docker.io/` prefix aside), or null. Never by likeness: a name one edit away is a typosquat candidate (R15).
 */
export function listedServer(name: string): ListedServer | null {
  if (!name || name.length > 300) return null;
  // the capability rules ask about the same few names several times per manifest: answered once
  const cached = lookups.get(name);
  if (cached !== undefined) return cached;
  const index = listedByKey();
  let found: ListedServer | null;
  if (/github[.:]/i.test(name)) {
    const r = repoKey(name);
    found = r ? (index.get(r) ?? null) : null;
  } else {
    const bare = withoutVersion(name).replace(/^docker\.io\//, '');
    found = index.get(bare) ?? index.get(pep503(bare)) ?? null;
  }
  if (lookups.size >= 5000) lookups.clear();
  lookups.set(name, found);
  return found;
}
const lookups = new Map<string, ListedServer | null>();

/** The listed installers' published names and repositories, lower-cased (built once). */
let installerNames: string[] | null = null;
/**
 * Whether a text mentions a listed installer of other servers at all: a guard before the exact lookups, so a manifest
 * that names none costs a few substring scans (no pattern built from data).
 */
export function listedInstallerMention(text: string): boolean {
  if (!text) return false;
  installerNames ??= [...listedByKey()]
    .filter(([, s]) => s.capabilities.includes('installs_servers'))
    .map(([k]) => k.replace(/^github\.com\//, '').toLowerCase());
  const lower = text.toLowerCase();
  return installerNames.some((n) => lower.includes(n));
}

/** Whether a name is a well-known or listed server with one of these capabilities. */
export function isKnownServerWith(name: string, caps: readonly ServerCapability[]): boolean {
  return (
    knownServers(name).some((s) => s.capabilities.some((c) => caps.includes(c))) ||
    (listedServer(name)?.capabilities.some((c) => caps.includes(c)) ?? false)
  );
}

/** Well-known tool name → the ids of the servers that publish it (docs/drift.md, R32). */
export const KNOWN_TOOLS: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const s of KNOWN_SERVERS) for (const t of s.tools) m.set(t, [...(m.get(t) ?? []), s.id]);
  return m;
})();
