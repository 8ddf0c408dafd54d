// Times enrich() over the sample manifests (not a test). Run: pnpm --filter @risk/enrichment bench
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { enrich, type EnrichmentInput } from '../src/index';

const dir = join(__dirname, '..', 'test', 'fixtures');
const typeFor = (f: string): EnrichmentInput['asset_type'] =>
  /^0[1-46]/.test(f) ? 'mcp_server' : f.startsWith('05') ? 'agent' : 'model';
const inputs: EnrichmentInput[] = readdirSync(dir)
  .filter((f) => /^\d\d-/.test(f))
  .sort()
  .map((f) => ({
    fingerprint: `fp_${f}`,
    asset_type: typeFor(f),
    name: null,
    raw_manifest: readFileSync(join(dir, f), 'utf8'),
  }));
const ctx = {
  threats: [],
  publisher: { org_count: 3, signal_count: 10, first_seen: '2026-01-01T00:00:00Z' },
  now: '2026-11-22T00:00:00Z',
};

for (let i = 0; i < 200; i++) for (const inp of inputs) enrich(inp, ctx); // warm-up
const rounds = Number(process.env.ROUNDS ?? 500);
const t0 = process.hrtime.bigint();
for (let i = 0; i < rounds; i++) for (const inp of inputs) enrich(inp, ctx);
const ns = Number(process.hrtime.bigint() - t0);
const ops = rounds * inputs.length;
console.log(
  `enrich: ${ops} ops over ${inputs.length} sample manifests in ${(ns / 1e6).toFixed(0)} ms → ${Math.round(ops / (ns / 1e9))} ops/s (${(ns / ops / 1e3).toFixed(1)} µs/op, 1 core)`,
);
for (const inp of inputs) {
  const n = 300;
  const s = process.hrtime.bigint();
  for (let i = 0; i < n; i++) enrich(inp, ctx);
  console.log(`  ${inp.fingerprint.padEnd(50)} ${(Number(process.hrtime.bigint() - s) / n / 1e3).toFixed(1)} µs`);
}
