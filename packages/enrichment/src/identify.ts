// What an asset is called and who publishes it: names, ecosystems and publishers from the URL and the manifest.
import type { EnrichmentInput, ParsedManifest } from './types';
import { formatEcosystem } from './formats';
import { isObj, str } from './util';

/** lower-case, fold `_` and `.` to `-`, drop an `org/` prefix (and an npm `@scope/`). */
export function normalizeAssetName(name: string): string {
  let n = name.trim().toLowerCase();
  const slash = n.lastIndexOf('/');
  if (slash >= 0) n = n.slice(slash + 1);
  return n.replace(/[_.]+/g, '-');
}

const HF_URL = /^https?:\/\/(?:www\.)?huggingface\.co\/(?:(datasets|spaces)\/)?([\w.-]+)\/([\w.-]+)/i;
const GH_URL = /^https?:\/\/(?:www\.)?github\.com\/([\w.-]+)\/([\w.-]+)/i;
const NPM_URL = /^https?:\/\/(?:www\.)?npmjs\.com\/package\/((?:@[\w.-]+\/)?[\w.-]+)/i;
const PYPI_URL = /^https?:\/\/pypi\.org\/project\/([\w.-]+)/i;

export function identify(
  input: EnrichmentInput,
  p: ParsedManifest,
): { name: string | null; publisher: string | null; ecosystem: string | null } {
  const url = input.source_url ?? '';
  const md = isObj(input.metadata) ? input.metadata : {};
  let name = str(input.name) ?? p.name ?? null;
  let ecosystem: string | null = null;
  let publisher: string | null = str(md.publisher) ?? null;
  const hf = HF_URL.exec(url);
  if (hf) {
    ecosystem = 'huggingface';
    name = name ?? `${hf[2]}/${hf[3]}`;
    publisher = publisher ?? hf[2] ?? null;
  }
  if (!ecosystem) {
    // the ecosystem a format implies is part of its definition (src/formats/registry.ts)
    const implied = formatEcosystem(p.kind);
    if (NPM_URL.test(url) || implied === 'npm') ecosystem = 'npm';
    else if (PYPI_URL.test(url) || implied === 'pypi') ecosystem = 'pypi';
    else if (
      implied === 'mcp' ||
      (input.asset_type === 'mcp_server' && name && /^io\.github\.|^[a-z]+\.[\w.-]+\//.test(name))
    )
      ecosystem = 'mcp';
    else if (implied === 'ollama' || /ollama\.com/.test(url)) ecosystem = 'ollama';
    else if (input.asset_type === 'container_image') ecosystem = 'oci';
    else if (
      (input.asset_type === 'model' || input.asset_type === 'dataset') &&
      name &&
      /^[\w.-]+\/[\w.-]+$/.test(name)
    )
      ecosystem = 'huggingface';
    else if (input.asset_type === 'package' && name) ecosystem = name.startsWith('@') ? 'npm' : null;
  }
  if (!name && p.kind !== 'empty') {
    const np = NPM_URL.exec(url) ?? PYPI_URL.exec(url);
    if (np) name = np[1] ?? null;
  }
  if (!publisher && name) {
    const mcp = /^io\.github\.([^/]+)\//i.exec(name);
    const scope = /^@([^/]+)\//.exec(name);
    if (mcp) publisher = mcp[1] ?? null;
    else if (scope) publisher = scope[1] ?? null;
    else if (/^[\w.-]+\/[\w.-]+$/.test(name) && ecosystem !== 'npm') publisher = name.split('/')[0] ?? null;
    else if (/^[a-z]{2,}\.[\w-]+(\.[\w-]+)*\//i.test(name))
      publisher = name.split('/')[0]?.split('.').reverse().join('.') ?? null;
  }
  if (!publisher) {
    const gh = GH_URL.exec(url) ?? (p.repository_url ? GH_URL.exec(p.repository_url) : null);
    if (gh) publisher = gh[1] ?? null;
  }
  if (!publisher && p.authors[0] && ecosystem !== 'npm') publisher = null;
  return { name, publisher: publisher ? publisher.replace(/^@/, '') : null, ecosystem };
}
