// Prints the console's bundle size, raw and gzipped, and fails the build above the 500 KB gzipped budget
// (docs/console.md "Build and serving").
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const BUDGET_GZIP_BYTES = 500 * 1024;
const dist = path.join(__dirname, '..', 'dist');

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : [full];
  });
}

let raw = 0;
let gzip = 0;
for (const file of files(dist)) {
  const body = fs.readFileSync(file);
  raw += body.length;
  gzip += zlib.gzipSync(body, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`console bundle: ${kb(raw)} raw, ${kb(gzip)} gzipped (budget ${kb(BUDGET_GZIP_BYTES)} gzipped)`);
if (gzip > BUDGET_GZIP_BYTES) {
  console.error('console bundle: over budget');
  process.exit(1);
}
