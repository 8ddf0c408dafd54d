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

/** Rules of the directory's own .gitignore added to those above it; an unreadable .gitignore ignores nothing. */
async function withGitignore(rules: readonly Rules[], dir: { abs: string; rel: string }): Promise<readonly Rules[]> {
  try {
    const text = await readFile(path.join(dir.abs, '.gitignore'), 'utf8');
    return [...rules, { base: dir.rel, ig: ignore().add(text) }];
  } catch {
    return rules;
  }
}

/** Walks `root` depth-first in name order (so output is stable), yielding files; `stats` fills as it goes. */
export async function* walk(root: string, opts: WalkOptions, stats: WalkStats): AsyncGenerator<WalkedFile> {
  const realRoot = await realpath(root);
  const visited = new Set<string>([realRoot]);
  const inside = (p: string): boolean => p === realRoot || p.startsWith(realRoot + path.sep);
  const skippedByName = (name: string): boolean =>
    (!opts.includeDeps && (DEPENDENCY_DIRS.has(name) || VIRTUALENV_DIRS.has(name))) ||
    (!opts.includeBuild && BUILD_DIRS.has(name));

  /** What an entry is, a link followed only while its target stays inside the tree; null to pass it by. */
  async function entryOf(abs: string): Promise<{ isDir: boolean; size: number } | null> {
    const st = await lstat(abs).catch(() => null);
    if (!st) return null;
    if (!st.isSymbolicLink())
      return st.isDirectory() || st.isFile() ? { isDir: st.isDirectory(), size: st.size } : null;
    const target = await realpath(abs).catch(() => null);
    if (!target) return null; // dangling
    if (!inside(target)) {
      stats.symlinks_outside++;
      return null;
    }
    const tst = await stat(target);
    if (tst.isDirectory()) {
      if (visited.has(target)) return null; // a loop
      visited.add(target);
    }
    return { isDir: tst.isDirectory(), size: tst.size };
  }

  async function* dir(abs: string, rel: string, rules: readonly Rules[]): AsyncGenerator<WalkedFile> {
    let names: string[];
    try {
      names = (await readdir(abs)).sort();
    } catch (e) {
      stats.errors.push(`${rel || '.'}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      return;
    }
    // a virtualenv of any name holds pyvenv.cfg (the usual names are skipped before they are read)
    if (rel && !opts.includeDeps && names.includes('pyvenv.cfg')) {
      stats.skipped_dirs++;
      return;
    }
    stats.directories++;
    const scoped = opts.gitignore && names.includes('.gitignore') ? await withGitignore(rules, { abs, rel }) : rules;
    for (const name of names) {
      if (stats.truncated) return;
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const entry = await entryOf(childAbs);
      if (!entry || (entry.isDir && ALWAYS_SKIPPED.has(name))) continue;
      if (isDirIgnored(scoped, childRel, entry.isDir)) {
        stats.ignored++;
      } else if (entry.isDir) {
        if (skippedByName(name)) stats.skipped_dirs++;
        else yield* dir(childAbs, childRel, scoped);
      } else if (stats.files >= opts.maxFiles) {
        stats.truncated = true;
        return;
      } else {
        stats.files++;
        yield { abs: childAbs, rel: childRel, size: entry.size };
      }
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
