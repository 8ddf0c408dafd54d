// `pnpm --filter @risk/sdk generate`: writes src/generated/*.ts from the services' OpenAPI documents.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, renderGeneratedFiles } from './openapi-types';

async function main() {
  mkdirSync(GENERATED_DIR, { recursive: true });
  for (const [name, source] of Object.entries(await renderGeneratedFiles())) {
    writeFileSync(path.join(GENERATED_DIR, name), source);
    console.log(`wrote ${path.relative(process.cwd(), path.join(GENERATED_DIR, name))}`);
  }
}

main().then(
  () => process.exit(0), // the services' modules open nothing, but exit explicitly in case a dependency keeps a handle
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
