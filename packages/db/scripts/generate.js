// Runs `prisma generate` with no network: Prisma 7's CLI insists on resolving a native schema engine
// even though generate never executes it, so we point PRISMA_SCHEMA_ENGINE_BINARY at an existing
// file (DESIGN.md §2). The generated client lives in src/generated (git-ignored).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

const stub = path.join(os.tmpdir(), 'risk-prisma-schema-engine-stub');
if (!fs.existsSync(stub)) fs.writeFileSync(stub, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
const cli = require.resolve('prisma/build/index.js', { paths: [path.join(__dirname, '..')] });
execFileSync(process.execPath, [cli, 'generate', '--schema', path.join(__dirname, '..', 'prisma', 'schema.prisma')], {
  stdio: 'inherit',
  env,
  cwd: path.join(__dirname, '..'),
});
