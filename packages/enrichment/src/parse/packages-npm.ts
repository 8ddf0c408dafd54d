// npm manifests: package.json (dependencies, licence, repository) and package-lock.json (resolved registry
// tarballs). The Python manifests are packages.ts.
import type { Dependency, ParsedManifest } from '../types';
import { isObj, str, type Obj } from '../util';
import { append, licenseFromValue } from './common';
import { LIMITS } from '../limits';

function depsFromNpm(v: unknown, path: string): Dependency[] {
  if (!isObj(v)) return [];
  return Object.keys(v)
    .sort()
    .map((k) => ({
      ecosystem: 'npm' as const,
      name: k,
      spec: typeof v[k] === 'string' ? (v[k] as string) : '*',
      path: `${path}.${k}`,
    }));
}

export function parseNpm(p: ParsedManifest, j: Obj): void {
  p.name = str(j.name);
  p.version = str(j.version);
  p.description = str(j.description);
  p.licenses = licenseFromValue(j.license ?? j.licenses);
  p.mcp_name = str(j.mcpName);
  const repo = j.repository;
  p.repository_url = typeof repo === 'string' ? repo : isObj(repo) ? str(repo.url) : null;
  p.homepage = str(j.homepage);
  const author = j.author;
  p.authors =
    typeof author === 'string' ? [author] : isObj(author) && str(author.name) ? [str(author.name) as string] : [];
  if (j.lockfileVersion !== undefined) {
    // package-lock.json / npm-shrinkwrap.json: what was installed, not what was asked for
    applyNpmLock(p, j);
    return;
  }
  append(p.dependencies, depsFromNpm(j.dependencies, 'dependencies'));
  append(p.dependencies, depsFromNpm(j.peerDependencies, 'peerDependencies'));
  append(p.dependencies, depsFromNpm(j.optionalDependencies, 'optionalDependencies'));
  if (isObj(j.scripts))
    for (const k of Object.keys(j.scripts)) if (typeof j.scripts[k] === 'string') p.scripts[k] = j.scripts[k] as string;
}

/** The npm registry's tarball host: a `resolved` elsewhere (git, another URL) is a URL/VCS dependency. */
const NPM_REGISTRY_TARBALL = 'https://registry.npmjs.org/';

/**
 * Lock metadata (npm `package-lock.json`/`npm-shrinkwrap.json`, lockfileVersion 1–3), as the manifest itself or given
 * with a package.json (`metadata.package_lock`): every dependency at the version installed, so version advisories
 * match exact versions and ranges resolved by the lock are not reported as ranges (a package.json
 * is read with its lock metadata when given); a `resolved` outside the npm registry becomes a URL/VCS requirement (R21), pinned
 * when it carries an `integrity` hash.
 */
export function applyNpmLock(p: ParsedManifest, lock: Obj): void {
  const installed = new Map<string, { version: string; resolved: string | null; integrity: boolean; path: string }>();
  if (isObj(lock.packages)) {
    // v2/v3: "node_modules/a/node_modules/b" → b (the first copy of a name wins: the top-level one sorts first)
    for (const key of Object.keys(lock.packages).sort()) {
      const e = lock.packages[key];
      const at = key.lastIndexOf('node_modules/');
      if (!key || at < 0 || !isObj(e) || typeof e.version !== 'string') continue;
      const name = key.slice(at + 'node_modules/'.length);
      if (!installed.has(name))
        installed.set(name, {
          version: e.version,
          resolved: str(e.resolved),
          integrity: typeof e.integrity === 'string',
          path: `packages.${key}`,
        });
    }
  } else if (isObj(lock.dependencies)) {
    // v1: a nested `dependencies` tree; the top level is what the project installs
    for (const name of Object.keys(lock.dependencies).sort()) {
      const e = lock.dependencies[name];
      if (isObj(e) && typeof e.version === 'string')
        installed.set(name, {
          version: e.version,
          resolved: str(e.resolved),
          integrity: typeof e.integrity === 'string',
          path: `dependencies.${name}`,
        });
    }
  }
  const declared = new Map(p.dependencies.filter((d) => d.ecosystem === 'npm').map((d) => [d.name, d]));
  if (declared.size) {
    // a package.json with its lock: the declared dependencies at their locked versions
    for (const d of declared.values()) {
      const hit = installed.get(d.name);
      if (hit && !hit.version.includes(':')) d.spec = hit.version;
    }
  } else {
    for (const [name, e] of installed) {
      if (p.dependencies.length >= LIMITS.dependencies) break;
      // `version` of a git/URL install is the URL itself (lockfile v1): not a registry version
      if (!e.version.includes(':')) p.dependencies.push({ ecosystem: 'npm', name, spec: e.version, path: e.path });
    }
  }
  const urls = (p.url_requirements ??= []);
  for (const [name, e] of installed) {
    const where = e.resolved ?? (e.version.includes(':') ? e.version : null);
    if (!where || where.startsWith(NPM_REGISTRY_TARBALL) || urls.length >= LIMITS.dependencies) continue;
    // a git ref with a commit (`#<sha>`) or a tarball with an integrity hash cannot change under the lock
    const pinned = /#[0-9a-f]{40}$/.test(where) || (e.integrity && !where.startsWith('git'));
    urls.push({ line: `${name} @ ${where.slice(0, LIMITS.item_string)}`, path: e.path, editable: false, pinned });
  }
}
