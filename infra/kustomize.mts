// A kustomization renderer for `pnpm check:deploy` (check-deploy.mts): renders a directory the way `kubectl
// kustomize` does for the kustomization fields used here (resources, namespace, labels, images, {path} patches);
// any other field is an error, never ignored.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parse } from 'yaml';

export type Obj = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string } & Record<string, unknown>;
};
export type Json = Record<string, unknown>;

const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);
const CLUSTER_SCOPED = new Set(['Namespace']);

export const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const idOf = (o: Obj) => `${o.kind}/${o.metadata.name}`;

function readYamlDocs(file: string): Obj[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return doc.toJS() as Obj | null;
    })
    .filter((o): o is Obj => o !== null);
}

/** Strategic merge as kubectl applies it to these objects: maps merge, lists of named items merge by name. */
function strategicMerge(base: unknown, patch: unknown): unknown {
  if (isMap(base) && isMap(patch)) {
    const out: Json = { ...base };
    for (const [k, v] of Object.entries(patch)) out[k] = k in base ? strategicMerge(base[k], v) : v;
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && patch.every((p) => isMap(p) && typeof p.name === 'string')) {
    const out = base.map((b) => {
      const match = patch.find((p) => isMap(b) && (p as Json).name === b.name);
      return match ? strategicMerge(b, match) : b;
    });
    for (const p of patch) if (!base.some((b) => isMap(b) && b.name === (p as Json).name)) out.push(p);
    return out;
  }
  return patch;
}

export function podSpecsOf(o: Obj): Json[] {
  const spec = o.spec as Json | undefined;
  const template = spec?.template as Json | undefined;
  return template?.spec ? [template.spec as Json] : [];
}

/** Renders a kustomization directory (recursively through directory resources). */
export function render(dir: string): Obj[] {
  const k = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as Json;
  const unknown = Object.keys(k).filter((f) => !KUSTOMIZATION_FIELDS.has(f));
  if (unknown.length)
    throw new Error(`${dir}: kustomization fields this renderer does not apply: ${unknown.join(', ')}`);
  let objects: Obj[] = [];
  for (const resource of (k.resources as string[] | undefined) ?? []) {
    const target = path.join(dir, resource);
    objects.push(...(statSync(target).isDirectory() ? render(target) : readYamlDocs(target)));
  }
  for (const patchRef of (k.patches as Array<{ path?: string }> | undefined) ?? []) {
    if (!patchRef.path || Object.keys(patchRef).length !== 1)
      throw new Error(`${dir}: only {path} patches are supported`);
    for (const patch of readYamlDocs(path.join(dir, patchRef.path))) {
      const index = objects.findIndex((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
      if (index === -1) throw new Error(`${dir}: patch ${idOf(patch)} matches no resource`);
      objects[index] = strategicMerge(objects[index], patch) as Obj;
    }
  }
  for (const label of (k.labels as Array<{ pairs: Record<string, string>; includeTemplates?: boolean }> | undefined) ??
    []) {
    const extra = Object.keys(label).filter((f) => f !== 'pairs' && f !== 'includeTemplates');
    if (extra.length) throw new Error(`${dir}: labels fields not supported: ${extra.join(', ')}`);
    objects = objects.map((o) => {
      const out = structuredClone(o);
      out.metadata.labels = { ...(out.metadata.labels as Json | undefined), ...label.pairs };
      const template = (out.spec as Json | undefined)?.template as Json | undefined;
      if (label.includeTemplates && template) {
        const meta = (template.metadata ??= {}) as Json;
        meta.labels = { ...(meta.labels as Json | undefined), ...label.pairs };
      }
      return out;
    });
  }
  if (typeof k.namespace === 'string') {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  for (const image of (k.images as Array<{ name: string; newName?: string; newTag?: string }> | undefined) ?? []) {
    for (const o of objects)
      for (const podSpec of podSpecsOf(o))
        for (const c of [...((podSpec.containers as Json[]) ?? []), ...((podSpec.initContainers as Json[]) ?? [])]) {
          const [name, tag] = String(c.image).split(':');
          if (name !== image.name) continue;
          c.image = `${image.newName ?? name}:${image.newTag ?? tag ?? 'latest'}`;
        }
  }
  return objects;
}
