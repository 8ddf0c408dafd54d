// Builds src/data/known-servers.json, the listed MCP servers and their capabilities, from the listing snapshots in
// data/known-servers/ (docs/enrichment.md "Data files"):
//   tsx scripts/build-known-servers.ts > src/data/known-servers.json
// Capabilities come only from each listing's own description, by the keyword rules below (never from a name, never
// guessed); an entry whose description names none of them has none. Each entry records where it was listed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '..', 'data', 'known-servers');

/**
 * Description → capability, in the engine's vocabulary (src/rules/signals/servers.ts). Each pattern names what the
 * server does to the world, not the service it talks to: a Stripe API server is not "network egress", a scraper is.
 */
const RULES: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'browser',
    /\bbrowser(?:[- ]use)? (?:automation|interactions?)\b|\bcontrol a browser\b|\bplaywright\b|\bpuppeteer\b|\bchromium\b|\bweb navigation\b|\bwebsite screenshots\b/i,
  ],
  [
    'network_egress',
    /\bweb (?:search|scraping|content|data|crawling|pages?)\b|\bsearch the web\b|\bweb-wide\b|\bscrap(?:e|es|ing)\b|\bwebscraping\b|\bcrawl(?:ing|er)?\b|\bfetch(?:es|ing)? (?:html|web|urls?)\b|\bweb content fetching\b|\bhttp request\b|\bweb searches\b|\bsearch engine (?:made )?for ai|\bgoogle search results\b/i,
  ],
  [
    'shell',
    /\b(?:execute|executing|run|running)s? (?:arbitrary |generated |terminal |shell )?(?:python |applescript )?(?:code|commands?)\b|\bcode execution\b|\bcommand execution\b|\bcommand-line interactions\b|\bterminal command\b|\bpowershell\b|\bcode sandbox\b|\bexecute arbitrary\b|\bexecution of any\b/i,
  ],
  [
    'filesystem_write',
    /\bsecure file operations\b|\btools for file operations\b|\bfilesystem operations\b|\bfile system operations\b|\bmake changes to code\b|\bwriting,? and organizing notes\b|\ballow file access\b/i,
  ],
  [
    'filesystem_read',
    /\bsecure file operations\b|\btools for file operations\b|\bfilesystem operations\b|\bfile system operations\b|\blocal files\b|\bfile searching\b|\bread and search through your\b|\brepo-packing\b|\bexplore a code-base\b|\ballow file access\b/i,
  ],
  [
    'payments',
    /\bpayments?\b|\bpurchase\b|\bbilling\b|\brefunds\b|\bget paid\b|\bexecute trades\b|\btransaction execution\b|\bsend usdc\b|\btransfer, swap\b|\bonchain actions\b|\binvoicing\b/i,
  ],
  [
    'messaging',
    /\bsend(?:s|ing)? (?:email|messages?|notifications?|instant notifications|texts|requests for approval)\b|\bmessaging\b|\bpost tweets\b|\bpublish x\/twitter posts\b|\bemail management\b|\bsend(?:s|ing)?\b.{0,20}\bmessages\b|\bmessage sending\b|\bread and write messages\b|\bmaking calls\b|\bsending the notification\b|\bemail\b/i,
  ],
  [
    'infrastructure',
    /\bkubernetes\b|\bmanage containers\b|\bopenshift\b|\bnomad clusters\b|\baws resources\b|\bcloud resources\b|\bdeploy, configure\b|\bmanaging apps, add-ons, dynos\b/i,
  ],
  ['installs_servers', /\binstalls other mcp servers\b|\bcreates, runs, and manages model context protocol servers\b/i],
];

interface Source {
  repo: string;
  path: string;
  commit: string | null;
}

function lines(file: string): string[][] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('# ') && !l.startsWith('#\t'))
    .map((l) => l.split('\t'));
}

function sources(file: string): Map<string, Source> {
  const out = new Map<string, Source>();
  for (const l of readFileSync(join(DIR, file), 'utf8').split('\n')) {
    const f = l.split('\t');
    if (f[0] === '# source' && f.length >= 4) {
      const [key, repo, path, commit] = f.length === 5 ? f.slice(1) : ['servers', ...f.slice(1)];
      out.set(key!, { repo: repo!, path: path!, commit: commit && commit !== '-' ? commit : null });
    }
  }
  return out;
}

/** `https://github.com/Owner/Repo/tree/main/x` → `owner/repo/tree/main/x` (lowercase, no trailing slash). */
function normaliseLink(url: string): string {
  return url
    .toLowerCase()
    .replace(/^https?:\/\/(?:www\.)?/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const listingSources = sources('servers-readme.tsv');
const packageSources = sources('registry-packages.tsv');
const readme = listingSources.get('servers')!;

const packagesByLink = new Map<string, Array<{ registry: string; name: string; source: Source; joined: string }>>();
for (const [link, registry, name, src] of lines('registry-packages.tsv')) {
  const source = packageSources.get(src!);
  if (!link || !registry || !name || !source) throw new Error(`bad package line: ${link} ${name}`);
  const key = normaliseLink(link);
  const list = packagesByLink.get(key) ?? [];
  // the toolsdk collection lists a package without its repository: joined to the README entry by hand
  list.push({ registry, name: name.toLowerCase(), source, joined: src === 'toolsdk' ? 'by hand' : 'listing' });
  packagesByLink.set(key, list);
}

const seenIds = new Set<string>();
const servers = lines('servers-readme.tsv').map(([section, name, link, description]) => {
  if (!section || !name || !link || description === undefined) throw new Error(`bad listing line: ${name}`);
  const key = normaliseLink(link);
  const gh = /^github\.com\/([^/]+)\/([^/#?]+)(?:\/(?:tree|blob)\/[^/]+\/(.+))?/.exec(key);
  const publisher = gh ? gh[1]! : (/^(?:pypi\.org\/project\/)?([^/]+)/.exec(key)?.[1] ?? key);
  let id = gh ? `${gh[1]}/${gh[2]}${gh[3] ? `/${gh[3]}` : ''}` : key;
  if (seenIds.has(id)) id = `${id}#${slug(name)}`;
  seenIds.add(id);
  const capabilities = RULES.filter(([, re]) => re.test(description)).map(([c]) => c);
  const packages = packagesByLink.get(key) ?? [];
  packagesByLink.delete(key);
  const remote = !gh && /^(?:mcp\.|[^/]+\/mcp$)/.test(key) ? key.split('/')[0]! : null;
  return {
    id,
    name,
    publisher,
    listing: section,
    // reference servers are Anthropic's own; official integrations are listed as maintained by the vendor
    official: section !== 'community',
    repository: gh ? `https://github.com/${gh[1]}/${gh[2]}` : null,
    ...(gh?.[3] ? { repository_path: gh[3] } : {}),
    ...(remote ? { remote_host: remote } : {}),
    packages: packages.map((p) => ({
      registry: p.registry,
      name: p.name,
      source: p.source,
      ...(p.joined === 'by hand' ? { joined: 'by hand (package scope or name = repository owner or name)' } : {}),
    })),
    capabilities,
    capabilities_from: 'description',
    description,
    source: readme,
  };
});
if (packagesByLink.size) throw new Error(`packages without a listed server: ${[...packagesByLink.keys()].join(', ')}`);

// one server a line: compact for the engine to load, still diffable line by line
process.stdout.write(
  `{"_source":${JSON.stringify(
    'Generated by scripts/build-known-servers.ts from data/known-servers/ (snapshots of public listings; each entry names its own `source`). Never edit by hand. Capabilities are derived from the listing description only (`capabilities_from`), by the keyword rules in the script. docs/enrichment.md "Data files".',
  )},\n"servers":[\n${servers.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`,
);
