import { analyze, finalize } from './src/index';
import { loadCorpus, readManifest } from './scripts/corpus-index';
import { NEUTRAL_CONTEXT } from './scripts/eval-corpus';
const idx = loadCorpus();
const only = process.argv.slice(2);
for (const e of idx.entries) {
  if (only.length && !only.includes(e.id)) continue;
  const a = analyze({ fingerprint: e.id, asset_type: e.asset_type, name: e.name, version: null, source_url: null, raw_manifest: readManifest(e), metadata: null });
  const r = finalize(a, NEUTRAL_CONTEXT);
  const mark = r.intrinsic_risk_severity === e.expected_band ? ' ' : '*';
  console.log(`${mark}${e.id} ${e.asset_type} ${a.parsed.kind} exp=${e.expected_band} got=${r.intrinsic_risk_severity}(${r.intrinsic_risk_score}) ${r.findings.map((f) => `${f.rule_id}:${f.severity[0]}${f.confidence}`).join(' ')}`);
}
if (process.env.EV) for (const e of idx.entries) {
  if (!only.includes(e.id)) continue;
  const a = analyze({ fingerprint: e.id, asset_type: e.asset_type, name: e.name, version: null, source_url: null, raw_manifest: readManifest(e), metadata: null });
  for (const f of a.findings) console.log(e.id, f.rule_id, f.severity, f.confidence, f.title, '|', f.description.slice(0, 150), JSON.stringify(f.evidence).slice(0, 200));
}
