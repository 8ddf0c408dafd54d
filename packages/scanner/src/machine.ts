// `scan --machine` (docs/scanner.md "Machine scan"): the MCP configurations of the agent clients listed in
// data/clients.json (each location with the vendor page it comes from), the Hugging Face hub cache and Ollama's model
// manifests, all under one home folder (`--home` points elsewhere; the tests build one). Paths are shown as `~/…`.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { analyseFile, type ArtifactResult } from '@risk/artifacts';
import type { EnrichmentInput } from '@risk/enrichment';
import clients from '../data/clients.json';
import { verdictRecord, type AssetCollector } from './assets';
import { MANIFEST_MAX_BYTES } from './classify';
import { fingerprintOf } from './fingerprint';
import { collectFile, type ScanResult, type ScanSink } from './scan';

export interface Machine {
  home: string;
  platform: NodeJS.Platform;
}

interface ClientLocation {
  platforms: string[];
  path: string;
  dir?: boolean;
}

export interface AgentClient {
  id: string;
  name: string;
  docs: string;
  locations: ClientLocation[];
}

export const AGENT_CLIENTS: readonly AgentClient[] = clients.clients;

/** Client configurations can outgrow manifests: Claude Code keeps its history in `~/.claude.json` next to its servers. */
const CLIENT_CONFIG_MAX_BYTES = 32 * 1024 * 1024;

const TOKENS: Record<string, string> = {
  '{appdata}': 'AppData/Roaming',
  '{appsupport}': 'Library/Application Support',
  '{config}': '.config',
};

/** The client locations that apply on a platform, relative to the home folder (`/`-separated). */
export function clientPaths(platform: NodeJS.Platform): Array<{ client: AgentClient; rel: string; dir: boolean }> {
  return AGENT_CLIENTS.flatMap((client) =>
    client.locations
      .filter((l) => l.platforms.includes(platform))
      .map((l) => ({ client, rel: l.path.replace(/\{\w+\}/g, (t) => TOKENS[t] ?? t), dir: !!l.dir })),
  );
}

async function readSmall(abs: string, max = MANIFEST_MAX_BYTES): Promise<string | null> {
  const st = await stat(abs).catch(() => null);
  if (!st?.isFile() || st.size > max) return null;
  return readFile(abs, 'utf8').catch(() => null);
}

async function listDir(abs: string): Promise<string[]> {
  return (await readdir(abs).catch(() => [] as string[])).sort();
}

async function scanClients(m: Machine, collector: AssetCollector, result: ScanResult): Promise<void> {
  for (const { client, rel, dir } of clientPaths(m.platform)) {
    const files = dir
      ? (await listDir(path.join(m.home, ...rel.split('/'))))
          .filter((n) => /\.(json|ya?ml)$/i.test(n))
          .map((n) => `${rel}/${n}`)
      : [rel];
    for (const f of files) {
      const abs = path.join(m.home, ...f.split('/'));
      const st = await stat(abs).catch(() => null);
      if (!st?.isFile()) continue;
      if (st.size > CLIENT_CONFIG_MAX_BYTES) {
        result.skipped.push({
          path: `~/${f}`,
          size: st.size,
          reason: `client configuration larger than ${CLIENT_CONFIG_MAX_BYTES} bytes`,
        });
        continue;
      }
      const text = await readSmall(abs, CLIENT_CONFIG_MAX_BYTES);
      if (text === null) continue;
      result.stats.files++;
      result.stats.manifests++;
      collector.addClientConfig(`~/${f}`, text, client.id);
    }
  }
}

/** Files under `dir` (depth-bounded), keeping only those whose real path stays inside `inside` (cache symlinks). */
async function* filesUnder(
  dir: string,
  inside: string,
  depth = 6,
): AsyncGenerator<{ abs: string; rel: string; size: number }> {
  if (depth < 0) return;
  for (const name of await listDir(dir)) {
    const abs = path.join(dir, name);
    const real = await realpath(abs).catch(() => null);
    if (!real || !(real === inside || real.startsWith(inside + path.sep))) continue;
    const st = await stat(real).catch(() => null);
    if (st?.isDirectory()) {
      for await (const f of filesUnder(abs, inside, depth - 1)) yield { ...f, rel: `${name}/${f.rel}` };
    } else if (st?.isFile()) yield { abs, rel: name, size: st.size };
  }
}

/** The hub cache: `models--{org}--{name}/snapshots/{revision}/…`, each snapshot one model folder named after its repo. */
async function scanHuggingFace(m: Machine, sink: ScanSink): Promise<void> {
  const hubRel = '.cache/huggingface/hub';
  const hub = path.join(m.home, ...hubRel.split('/'));
  for (const repoDir of await listDir(hub)) {
    const match = /^(models|datasets)--(.+)$/.exec(repoDir);
    if (!match || match[1] !== 'models') continue;
    const repo = match[2]!.split('--').join('/');
    const repoAbs = await realpath(path.join(hub, repoDir)).catch(() => null);
    if (!repoAbs) continue;
    for (const rev of await listDir(path.join(repoAbs, 'snapshots'))) {
      const shownDir = `~/${hubRel}/${repoDir}/snapshots/${rev}`;
      for await (const f of filesUnder(path.join(repoAbs, 'snapshots', rev), repoAbs)) {
        sink.result.stats.files++;
        const shown = `${shownDir}/${f.rel}`;
        sink.collector.nameFolder(path.posix.dirname(shown), repo, `https://huggingface.co/${repo}`);
        await collectFile(sink, { abs: f.abs, shown, size: f.size });
      }
    }
  }
}

interface OllamaLayer {
  mediaType?: unknown;
  digest?: unknown;
  size?: unknown;
}

const DIGEST = /^sha256:([0-9a-f]{64})$/;

/** An Ollama model name from its manifest path: `library/` and the default registry are implied, as `ollama list` shows. */
function ollamaName(parts: readonly string[]): string {
  const [registry, namespace, model, tag] = parts;
  const base = namespace === 'library' ? model : `${namespace}/${model}`;
  return `${registry === 'registry.ollama.ai' ? '' : `${registry}/`}${base}:${tag}`;
}

/** The ollama.com page of a model pulled from the default registry (`library/` models under `library/`). */
function ollamaPage(parts: readonly string[]): string | null {
  const [registry, namespace, model] = parts;
  return registry === 'registry.ollama.ai' ? `https://ollama.com/${namespace}/${model}` : null;
}

/** The Modelfile lines of a template, system or params layer; unreadable parameters are left out. */
function modelfileLines(kind: string, body: string): string[] {
  if (kind !== 'params') return [`${kind.toUpperCase()} """${body.replace(/"""/g, '\\"\\"\\"')}"""`];
  try {
    return Object.entries(JSON.parse(body) as Record<string, unknown>).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v]).map((one) => `PARAMETER ${k} ${JSON.stringify(one)}`),
    );
  } catch {
    return [];
  }
}

/** The model layer's blob (GGUF) analysed, or null when absent, unreadable or over --max-file-size (then skipped). */
async function analyseModelBlob(sink: ScanSink, blob: { abs: string; shown: string }): Promise<ArtifactResult | null> {
  const st = await stat(blob.abs).catch(() => null);
  if (!st?.isFile()) return null;
  if (st.size > sink.maxFileBytes) {
    sink.result.skipped.push({
      path: blob.shown,
      size: st.size,
      reason: `larger than --max-file-size (${sink.maxFileBytes} bytes)`,
    });
    return null;
  }
  const analysed = await analyseFile(blob.abs).catch(() => null);
  if (analysed) {
    sink.files?.set(analysed.sha256, blob.abs);
    sink.result.stats.model_files++;
    sink.result.stats.bytes_hashed += analysed.size;
  }
  return analysed;
}

interface OllamaModel {
  /** the Modelfile the engine reads: FROM, then the template, system prompt and parameters */
  lines: string[];
  /** the model layer's digest and declared size */
  weights: { hex: string; size: number } | null;
  analysed: ArtifactResult | null;
}

/** Reads a manifest's layers from the blob store under `root`: the model layer analysed, the others as Modelfile lines. */
async function readLayers(
  sink: ScanSink,
  root: { abs: string; shown: string },
  manifest: { name: string; layers: OllamaLayer[] },
): Promise<OllamaModel> {
  const model: OllamaModel = { lines: [`FROM ${manifest.name}`], weights: null, analysed: null };
  for (const layer of manifest.layers) {
    const hex = typeof layer.digest === 'string' ? DIGEST.exec(layer.digest)?.[1] : undefined;
    if (!hex || typeof layer.mediaType !== 'string') continue;
    const blob = { abs: path.join(root.abs, 'blobs', `sha256-${hex}`), shown: `${root.shown}/blobs/sha256-${hex}` };
    const kind = layer.mediaType.replace('application/vnd.ollama.image.', '');
    if (kind === 'model') {
      model.weights = { hex, size: typeof layer.size === 'number' ? layer.size : 0 };
      model.analysed = await analyseModelBlob(sink, blob);
    } else if (kind === 'template' || kind === 'system' || kind === 'params') {
      const body = await readSmall(blob.abs, 64 * 1024);
      if (body !== null) model.lines.push(...modelfileLines(kind, body));
    }
  }
  return model;
}

/** An Ollama manifest's layers, or null (an error noted) when it is not JSON; null also when it lists no layers. */
async function readManifestLayers(sink: ScanSink, abs: string, shown: string): Promise<OllamaLayer[] | null> {
  const text = await readSmall(abs, 1024 * 1024);
  try {
    const doc = text ? (JSON.parse(text) as { layers?: unknown }) : null;
    return doc && Array.isArray(doc.layers) ? (doc.layers as OllamaLayer[]) : null;
  } catch {
    sink.result.stats.errors.push(`${shown}: not JSON`);
    return null;
  }
}

/** `models/manifests/{registry}/{namespace}/{model}/{tag}`: the model layer (GGUF) is analysed, the rest is a Modelfile. */
async function scanOllama(m: Machine, sink: ScanSink): Promise<void> {
  const rootRel = '.ollama/models';
  const root = { abs: path.join(m.home, ...rootRel.split('/')), shown: `~/${rootRel}` };
  const manifests = path.join(root.abs, 'manifests');
  for await (const f of filesUnder(manifests, await realpath(manifests).catch(() => manifests), 4)) {
    const parts = f.rel.split('/');
    if (parts.length !== 4) continue;
    sink.result.stats.files++;
    const shown = `${root.shown}/manifests/${f.rel}`;
    const layers = await readManifestLayers(sink, f.abs, shown);
    if (!layers) continue;
    sink.result.stats.manifests++;
    const name = ollamaName(parts);
    const { lines, weights, analysed } = await readLayers(sink, root, { name, layers });
    const sha = analysed?.sha256 ?? weights?.hex ?? null;
    // the weights' digest is the model's identity: the same GGUF pulled under two names, or found on disk, is one model
    const fingerprint = sha ? fingerprintOf('model', sha) : fingerprintOf('model', 'ollama', name);
    const artifacts = sha ? [{ path: 'model.gguf', sha256: sha, size: analysed?.size ?? weights?.size ?? 0 }] : [];
    const input: EnrichmentInput = {
      fingerprint,
      asset_type: 'model',
      name,
      source_url: ollamaPage(parts),
      raw_manifest: `${lines.join('\n')}\n`,
      metadata: { filename: 'Modelfile', path: shown, scanner_format: 'ollama_manifest' },
      artifacts,
      artifact_verdicts: analysed ? [verdictRecord(analysed)] : [],
    };
    sink.collector.add({
      fingerprint,
      asset_type: 'model',
      name,
      version: parts[3] ?? null,
      locations: [{ path: shown, line: 1, kind: 'ollama_manifest' }],
      inputs: [input],
      artifacts,
      artifact_results: analysed ? [analysed] : [],
    });
  }
}

/** Collects the machine's assets into `sink` (judged with the rest by scanTrees). */
export async function scanMachine(m: Machine, sink: ScanSink): Promise<void> {
  const home = await stat(m.home).catch(() => null);
  if (!home?.isDirectory()) throw Object.assign(new Error(`home folder not found: ${m.home}`), { code: 'ENOENT' });
  await scanClients(m, sink.collector, sink.result);
  await scanHuggingFace(m, sink);
  await scanOllama(m, sink);
}
