// Regenerates RULES.md from the rule table: pnpm --filter @risk/enrichment rules-md
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import atlas from '../src/data/atlas-techniques.json';
import { RULES, SCORE_FORMULA } from '../src/index';

const names = new Map(atlas.techniques.map((t) => [t.id, t.name]));
const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const rows = RULES.map((r) => `| ${r.id} | ${esc(r.title)} | ${r.severity} | ${r.weight} | ${esc(r.rationale)} | ${r.attack_techniques.map((t) => `${t} (${names.get(t) ?? '?'})`).join(', ') || '—'} | ${esc(r.remediation)} |`);
const md = `# @risk/enrichment rules

Generated from \`src/rules-table.ts\` by \`scripts/gen-rules-md.ts\` (do not edit by hand). ${RULES.length} rules.
Sources: rule set from the project research brief (enrichment.md §3); ATLAS ids from \`src/data/atlas-techniques.json\`
(MITRE ATLAS 5.6.0); advisories for R23 from \`src/data/advisories.json\` (built from ai-cves.json, each entry keeps
its \`source\` and \`verification\`).

| id | title | default severity | base weight | rationale | MITRE ATLAS | remediation |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Notes
- A finding may carry a severity other than the default: R18 read-only access is \`medium\`, R20 literal secrets are
  \`high\`, R23 takes the advisory's severity, \`threat_match\` takes the threat's severity.
- Secrets are never copied into evidence: only the token type, a masked prefix and the length.
- R15 compares the asset name, its publisher and dependency names with \`well_known_names\` in
  \`src/data/publishers.json\` (Damerau–Levenshtein ≤ 2, ≤ 1 for names of 5–6 chars; homoglyph folding 0→o, 1→l, rn→m…).
- R23 matches an exact pin inside an advisory range, or a range whose every allowed version is affected (no fixed
  version satisfies it). PEP 440 versions are converted to semver (\`2.13.1rc0\` → \`2.13.1-rc.0\`).

## Scoring

Each finding has \`weight = base(severity) × confidence\` with base critical 60, high 35, medium 15, low 5,
informational 0, and confidence 1.0 (confirmed from manifest data), 0.6 (heuristic / name-based) or 0.3 (inferred from
prose). Threat findings (\`threat_match\`) have \`weight = risk_penalty\`.

\`\`\`
${SCORE_FORMULA}
\`\`\`

i.e. \`base = max(floor, 100·(1 − Π(1 − wᵢ/100)))\` — a probabilistic OR, bounded and order-free, so each extra finding
adds less; \`floor\` = 90 when a critical finding has confidence ≥ 0.9, 70 for such a high finding. Then
\`total = min(100, base + Σ risk_penaltyⱼ)\` and \`intrinsic_risk_score = round(total)\`.

Properties (tested with fast-check): 0 ≤ score ≤ 100; adding a finding never lowers the score (R00 positive signals
have weight 0 and never subtract, which keeps this true); the result does not depend on finding order.

Contributions: findings are sorted by weight (desc), then rule id, then input order; finding i's exact share is
\`100·Π_{j<i}(1 − w_j/100)·w_i/100\` (these sum to the raw OR), scaled by \`base/raw\` when a floor applies; threat shares
are their penalties; everything is scaled by \`total/(base + Σ penalties)\` when capped. The exact shares are rounded
with the largest-remainder method (ties: higher weight, then input order), so the integer \`score_contribution\`s sum
exactly to \`intrinsic_risk_score\`.

Severity bands (DESIGN.md): ≥ 90 critical, ≥ 70 high, ≥ 40 medium, ≥ 10 low, else informational.

## Publisher trust

\`{publisher, verified, level, score, factors[]}\`: baseline 30; +50 when the publisher is on the shipped verified list
(\`src/data/publishers.json\`); +3 per org that submitted signals (max +15); age since first seen +10 (≥ 365 d),
+6 (≥ 90 d), +3 (≥ 30 d), −5 (< 7 d); −30 for each R14/R15/R16 finding; −10 without a publisher; clamped to 0–100.
Level: \`suspicious\` if such a finding exists and the publisher is not verified, else \`verified\`, else
\`established\` (≥ 3 orgs and ≥ 90 days), else \`unknown\`.
`;
writeFileSync(join(__dirname, '..', 'RULES.md'), md);
console.log(`wrote RULES.md (${RULES.length} rules)`);
