// The directory walk (docs/scanner.md "What is read"): .gitignore rules per directory through `ignore`, the usual
// dependency, virtualenv and build folders skipped unless asked, symlinks followed only while they stay inside the
// scanned root, and a file-count cap so a huge tree ends with a reported truncation instead of unbounded work.
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders that hold other people's code or generated output; `--include-deps` / `--include-build` read them. */
export const DEPENDENCY_DIRS = new Set(['node_modules', 'bower_components', 'jspm_packages', '.pnpm-store']);
export const VIRTUALENV_DIRS = new Set(['.venv', 'venv', 'env', '.tox', '.nox', '__pypackages__', '.conda']);
export const BUILD_DIRS = new Set(['dist', 'build', 'out', 'target', '.next', '.nuxt', 'coverage', '.cache']);
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

export interface WalkOptions {
  maxFiles: number;
  includeDeps: boolean;
  includeBuild: boolean;
  /** honour .gitignore files (on by default) */
  gitignore: boolean;
}

export interface WalkedFile {
  /** absolute path as reached (through an in-tree symlink, the link's path) */
  abs: string;
  /** path relative to the scan root, `/`-separated */
  rel: string;
  size: number;
}

export interface WalkStats {
  files: number;
  directories: number;
  skipped_dirs: number;
  ignored: number;
  symlinks_outside: number;
  truncated: boolean;
  errors: string[];
}

interface Rules {
  base: string;
  ig: Ignore;
}

function isVirtualenv(name: string, entries: readonly string[]): boolean {
  // a virtualenv of any name holds pyvenv.cfg; the usual names are skipped outright
  return VIRTUALENV_DIRS.has(name) || entries.includes('pyvenv.cfg');
}

/** Walks `root` depth-first in name order (so output is stable), yielding files; `stats` fills as it goes. */
export async function* walk(root: string, opts: WalkOptions, stats: WalkStats): AsyncGenerator<WalkedFile> {
  const realRoot = await realpath(root);
  const visited = new Set<string>([realRoot]);
  const inside = (p: string): boolean => p === realRoot || p.startsWith(realRoot + path.sep);

  async function* dir(abs: string, rel: string, rules: readonly Rules[]): AsyncGenerator<WalkedFile> {
    let names: string[];
    try {
      names = (await readdir(abs)).sort();
    } catch (e) {
      stats.errors.push(`${rel || '.'}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      return;
    }
    stats.directories++;
    let scoped = rules;
    if (opts.gitignore && names.includes('.gitignore')) {
      try {
        const text = await readFile(path.join(abs, '.gitignore'), 'utf8');
        scoped = [...rules, { base: rel, ig: ignore().add(text) }];
      } catch {
        /* an unreadable .gitignore ignores nothing */
      }
    }
    for (const name of names) {
      if (stats.truncated) return;
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let st;
      try {
        st = await lstat(childAbs);
      } catch {
        continue;
      }
      let isDir = st.isDirectory();
      let size = st.size;
      if (st.isSymbolicLink()) {
        // a link is followed only when its target stays inside the scanned tree (never out of it)
        let target: string;
        try {
          target = await realpath(childAbs);
        } catch {
          continue; // dangling
        }
        if (!inside(target)) {
          stats.symlinks_outside++;
          continue;
        }
        const tst = await stat(target);
        isDir = tst.isDirectory();
        size = tst.size;
        if (isDir && visited.has(target)) continue; // a loop
        if (isDir) visited.add(target);
      } else if (!isDir && !st.isFile()) continue;
      if (isDir && ALWAYS_SKIPPED.has(name)) continue;
      if (isDirIgnored(scoped, childRel, isDir)) {
        stats.ignored++;
        continue;
      }
      if (isDir) {
        if (!opts.includeDeps && DEPENDENCY_DIRS.has(name)) {
          stats.skipped_dirs++;
          continue;
        }
        if (!opts.includeBuild && BUILD_DIRS.has(name)) {
          stats.skipped_dirs++;
          continue;
        }
        if (!opts.includeDeps && VIRTUALENV_DIRS.has(name)) {
          stats.skipped_dirs++;
          continue;
        }
        if (!opts.includeDeps) {
          let inner: string[] = [];
          try {
            inner = await readdir(childAbs);
          } catch {
            /* reported when descended */
          }
          if (isVirtualenv(name, inner)) {
            stats.skipped_dirs++;
            continue;
          }
        }
        yield* dir(childAbs, childRel, scoped);
        continue;
      }
      if (stats.files >= opts.maxFiles) {
        stats.truncated = true;
        return;
      }
      stats.files++;
      yield { abs: childAbs, rel: childRel, size };
    }
  }

  yield* dir(realRoot, '', []);
}

function isDirIgnored(rules: readonly Rules[], rel: string, isDir: boolean): boolean {
  for (const r of rules) {
    const sub = r.base ? rel.slice(r.base.length + 1) : rel;
    if (!sub) continue;
    if (r.ig.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

export function emptyStats(): WalkStats {
  return { files: 0, directories: 0, skipped_dirs: 0, ignored: 0, symlinks_outside: 0, truncated: false, errors: [] };
}
