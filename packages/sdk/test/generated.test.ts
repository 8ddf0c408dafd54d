// "The generated types are checked to be current": render src/generated/*.ts again, in memory, from the
// services' OpenAPI documents and compare with the checked-in files (scripts/generate.ts --check).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { scaledByLoad } from '@risk/testing';

jest.setTimeout(scaledByLoad(120_000));

test('src/generated matches the OpenAPI documents of both services', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check'], {
    cwd: path.join(__dirname, '..'),
    encoding: 'utf8',
  });
  // the script's message says which files differ and to run `pnpm --filter @risk/sdk generate`
  if (run.status !== 0) throw new Error(run.stderr || run.stdout || `generate --check exited ${run.status}`);
});
