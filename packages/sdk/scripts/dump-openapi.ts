// `pnpm lint:openapi` writes both OpenAPI documents (built in-process, as the SDK's generator builds them) to the
// folder given, as public-api.json and admin-api.json, for `redocly lint` (redocly.yaml at the root).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocuments } from './openapi-types';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: dump-openapi.ts <folder>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const [name, document] of Object.entries(openApiDocuments())) {
  writeFileSync(path.join(dir, name.replace(/\.ts$/, '.json')), JSON.stringify(document, null, 2));
}
process.exit(0); // a service module may keep a handle open
