// Service rules about the analysis itself: a manifest that does not parse, content read only as generic data,
// limits that cut the input, and the threat findings finalize() adds (docs/enrichment.md "Rule catalogue").
import { inFamily } from '../formats';
import { truncate } from '../util';
import { defineRule } from './define';

export const MANIFEST_UNPARSEABLE = defineRule({
  id: 'manifest_unparseable',
  title: 'Manifest could not be parsed',
  severity: 'low',
  weight: 5,
  category: 'manifest',
  rationale: 'The raw manifest is malformed JSON/YAML/TOML; analysis used the text fallback.',
  remediation: 'Resubmit a well-formed manifest.',
  attack_techniques: [],
  references: ['extra: a manifest that cannot be parsed yields a finding'],
  evaluate({ p }) {
    if (!p.parse_errors.length) return [];
    return [
      {
        description: `Manifest could not be fully parsed: ${truncate(p.parse_errors[0] ?? '', 160)}`,
        evidence: { path: 'raw_manifest', errors: p.parse_errors.slice(0, 5).map((e) => truncate(e, 200)) },
      },
    ];
  },
});

export const FORMAT_NOT_ANALYSED = defineRule({
  id: 'format_not_analysed',
  title: 'Content recognised but not analysed',
  severity: 'low',
  weight: 5,
  category: 'manifest',
  rationale:
    'The content parsed only as generic JSON/YAML/TOML/text: no manifest format matched, so no rule could judge it. Reported (and the score marked low-confidence) so a blind spot never reads as a clean 0.',
  remediation:
    'Submit the manifest in a supported format (docs/enrichment.md "Manifests recognised"), or review it by hand.',
  attack_techniques: [],
  references: ['—'],
  evaluate({ p, raw }) {
    // the generic formats (src/formats/generic.ts): nothing in them was analysed as a manifest
    if (!inFamily(p.kind, 'generic') || raw.trim() === '') return [];
    // a licence file is recognised: the licence rules read it
    if (p.license_text && p.license_text !== 'prose') return [];
    return [
      {
        description: `Content read as generic ${p.kind}: no manifest format recognised, so no rule could judge it.`,
        evidence: { path: 'raw_manifest', read_as: p.kind },
      },
    ];
  },
});

export const MANIFEST_LINES_SKIPPED = defineRule({
  id: 'manifest_lines_skipped',
  title: 'Lines of the manifest skipped',
  severity: 'informational',
  weight: 0,
  category: 'manifest',
  rationale:
    'A line-based manifest (requirements) is recognised by what most of it is: a line that is not a valid entry is skipped and named here, so one odd line can neither hide every other pin from analysis nor pass unnoticed (docs/enrichment.md "Manifests recognised"). Informational: the lines read are judged on their own.',
  remediation: 'Fix or remove the lines named; pip refuses a requirements file with an invalid line.',
  attack_techniques: [],
  references: ['—'],
  evaluate({ p }) {
    const s = p.skipped_lines;
    if (!s || s.total === 0) return [];
    const shown = s.lines.join(', ') + (s.total > s.lines.length ? ', …' : '');
    return [
      {
        description: `${s.total} line(s) of the ${p.kind} manifest are not valid entries and were skipped (line ${shown}).`,
        evidence: { path: 'raw_manifest', lines: s.lines, total: s.total },
      },
    ];
  },
});

export const ANALYSIS_TRUNCATED = defineRule({
  id: 'analysis_truncated',
  title: 'Manifest exceeds the analysis limits',
  severity: 'informational',
  weight: 0,
  category: 'manifest',
  rationale:
    'One manifest can list more servers, tools, dependencies, files or AI-BOM components than the engine analyses (src/limits.ts, docs/security.md); the excess is cut and named here rather than dropped silently. Informational: it does not change the score.',
  remediation: 'Split the asset into smaller manifests if the cut entries matter.',
  attack_techniques: [],
  references: ['—'],
  evaluate({ p }) {
    if (!p.truncated.length) return [];
    return [
      {
        description: `Analysis limits cut ${p.truncated.map((t) => `${t.what} (${t.kept} of ${t.total} kept)`).join(', ')}.`,
        evidence: { path: 'raw_manifest', truncated: p.truncated },
      },
    ];
  },
});

/** Threat findings are made by finalize() from the matched threats (src/index.ts threatFinding), not from the manifest. */
export const THREAT_MATCH = defineRule({
  id: 'threat_match',
  title: 'Matches a known threat',
  severity: 'high',
  weight: 35,
  category: 'threat',
  rationale:
    "The asset matches a threat from the threat catalogue; weight = the threat's risk_penalty, added on top of the base score.",
  remediation: "Follow the threat's remediation.",
  attack_techniques: [],
  references: ['extra: a matching threat adds its risk_penalty'],
  evaluate: () => [],
});
