// Builds the console (packages/console, docs/console.md "Build and serving") when its dist/ is missing or older
// than its sources: `pnpm start` and the console's browser test call it, so a fresh clone serves /console
// without a separate step. Vite takes a few seconds on two cores.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const CONSOLE_DIR = path.join(ROOT, 'packages', 'console');

function newestMtime(entry: string): number {
  const st = statSync(entry);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** true when dist/index.html is missing or older than src/, index.html or the Vite config */
export function consoleBuildStale(dir = CONSOLE_DIR): boolean {
  const built = path.join(dir, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['src', 'index.html', 'vite.config.mts'].map((f) => path.join(dir, f)).filter((f) => existsSync(f));
  return Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
}

/** Runs `pnpm --filter @risk/console build` when stale; throws with its output when the build fails. */
export function ensureConsoleBuilt(log: (line: string) => void = () => undefined): void {
  if (!consoleBuildStale()) return;
  log('building the console (packages/console)…');
  const run = spawnSync('pnpm', ['--filter', '@risk/console', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`console build failed:\n${run.stdout}\n${run.stderr}`);
  const sizeLine = run.stdout.split('\n').find((l) => l.startsWith('console bundle:'));
  if (sizeLine) log(sizeLine);
}
