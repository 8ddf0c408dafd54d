// `pnpm --filter @risk/sdk generate`: writes src/generated/*.ts from the services' OpenAPI documents.
// `--check` writes nothing: it renders in memory and exits 1 naming the files that differ (test/generated.test.ts
// runs it; openapi-typescript loads ES modules that jest's CommonJS runtime cannot, hence a child process).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATE_COMMAND, GENERATED_DIR, renderGeneratedFiles } from './openapi-types';

async function main(check: boolean): Promise<number> {
  const rendered = await renderGeneratedFiles();
  if (check) {
    const present = existsSync(GENERATED_DIR) ? readdirSync(GENERATED_DIR).filter((f) => f.endsWith('.ts')) : [];
    const stale = [
      ...Object.entries(rendered)
        .filter(
          ([name, source]) =>
            !present.includes(name) || readFileSync(path.join(GENERATED_DIR, name), 'utf8') !== source,
        )
        .map(([name]) => name),
      ...present.filter((name) => !(name in rendered)),
    ];
    if (stale.length === 0) return 0;
    console.error(
      `packages/sdk/src/generated is out of date with the OpenAPI documents (${stale.join(', ')}): ` +
        `run \`${GENERATE_COMMAND}\` and commit the result.`,
    );
    return 1;
  }
  mkdirSync(GENERATED_DIR, { recursive: true });
  for (const [name, source] of Object.entries(rendered)) {
    writeFileSync(path.join(GENERATED_DIR, name), source);
    console.log(`wrote ${path.relative(process.cwd(), path.join(GENERATED_DIR, name))}`);
  }
  return 0;
}

main(process.argv.includes('--check')).then(
  (code) => process.exit(code), // exit explicitly in case a dependency keeps a handle open
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
