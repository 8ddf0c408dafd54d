import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TaskFileSource {
  /** the TypeScript task file (absolute), whose default export is a budgetedTask (thread.ts) */
  source: string;
  /** a short name for the bundle in the temp directory, e.g. `analysis-task` */
  name: string;
  /** a .cjs file that registers tsx and requires the source: what threads load should bundling fail */
  fallback: string;
}

const files = new Map<string, Promise<string>>();

/**
 * The file each thread of a budgeted pool loads. The production image runs tsc's output (infra/docker/Dockerfile):
 * the compiled .js beside the source is there, ready to load. Otherwise the source and everything it imports are
 * bundled by esbuild into one CommonJS file (once per process and source, named by its content hash in the temp
 * directory, written atomically): a thread then starts in ~0.2 s instead of the ~1.5 s tsx needs to compile and
 * resolve the modules, so a thread replaced after a task over its budget is ready at once. Works the same under tsx
 * and jest, since it reads the sources itself (a worker thread is a fresh Node.js isolate that jest's module system
 * never sees). Should bundling fail, threads load the source through `fallback`: slower to start, same behaviour.
 */
export function taskFile(task: TaskFileSource): Promise<string> {
  let file = files.get(task.source);
  if (!file) files.set(task.source, (file = bundle(task)));
  return file;
}

async function bundle(task: TaskFileSource): Promise<string> {
  const compiled = task.source.replace(/\.ts$/, '.js');
  if (fs.existsSync(compiled)) return compiled;
  try {
    // loaded only here: the production image has no esbuild and never gets this far
    const { build } = await import('esbuild');
    const out = await build({
      entryPoints: [task.source],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      // a task file that imports this package must not bundle the bundler (task-file.ts is never run in a thread)
      external: ['esbuild'],
      // a package's ES module build first: a UMD `main` (jsonc-parser's) requires its parts through a wrapper esbuild
      // cannot follow, so its bundle failed to load at run time ("Cannot find module './impl/format'")
      mainFields: ['module', 'main'],
    });
    const code = out.outputFiles[0]!.contents;
    const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const file = path.join(os.tmpdir(), `risk-${task.name}-${hash}.cjs`);
    if (!fs.existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, code);
      await fs.promises.rename(tmp, file);
    }
    return file;
  } catch {
    return task.fallback;
  }
}
