// Licence rules: missing, non-commercial, use-restricted, conflicting with the base model, not SPDX
// (docs/enrichment.md "Rule catalogue", R08–R11 and R28; known model licences from src/data/model-licences.json).
import publishers from '../data/publishers.json';
import {
  NON_COMMERCIAL,
  isRestrictiveLicense,
  modelLicence,
  modelLicenceNamedIn,
  normalizeLicense,
  type ModelLicence,
} from '../license';
import { carries } from '../formats';
import type { ParsedManifest } from '../types';
import { isObj, truncate } from '../util';
import { defineRule, fired, type Emission } from './define';

const VENDOR_FAMILIES = publishers.vendor_families as Record<string, { family: string; license: string }>;
const NON_COMMERCIAL_TEXT =
  /non-?commercial (?:research )?(?:purposes|use)|research purposes only|for research only|solely for (?:your )?(?:non-commercial )?research|not for commercial use|commercial use (?:is )?(?:not permitted|prohibited)|open to academic research, and please apply for commercial use|non-?commercial[ \t]{1,3}(?:bespoke[ \t]{1,3}|research[ \t]{1,3})?licen[sc]e/i;
// use-restriction clauses of custom model licences (ChatGLM2, Llama, OpenRAIL); deliberately not "restriction"
// alone, which MIT's "without restriction" would match
const USE_RESTRICTION_TEXT =
  /\byou (?:will|shall|may|must) not (?:use|copy|modify|distribute)\b|\bmay not be used (?:for|to|in)\b|\bmilitary\b|\bprohibited uses?\b|\bacceptable use policy\b|\buse restrictions?\b/i;
/** npm documents `SEE LICENSE IN <file>` for a licence shipped as a file: a licence, not a malformed id. */
const SEE_LICENSE_FILE = /^SEE LICEN[SC]E IN\s/i;

const LICENSE_TYPES = new Set(['model', 'dataset', 'package', 'mcp_server', 'extension']);

/** A licence declared only in prose (the card body) is reported at lower confidence. */
const isProse = (p: ParsedManifest): boolean => p.license_text === 'prose';

/** `license: other`: the front matter leaves the licence to the card's text (Hugging Face licence docs). */
const isOther = (l: string): boolean => l.toLowerCase() === 'other';

/**
 * The custom model licence a declared licence names: by id, or for `other` by the card's license_name or, failing
 * that, by the licence the card's text names.
 */
function knownModelLicence(p: ParsedManifest, l: string): ModelLicence | null {
  const model = modelLicence(l) ?? (isOther(l) ? (modelLicence(p.license_name) ?? modelLicenceNamedIn(p.body)) : null);
  return model && !(isProse(p) && NON_COMMERCIAL.test(l)) ? model : null;
}

/** R09 or R10 for a known model licence: its commercial, field-of-use, attribution and derivative terms. */
function modelLicenceEmission(p: ParsedManifest, l: string, model: ModelLicence): Emission {
  const terms = [
    model.commercial === 'no'
      ? 'no commercial use'
      : model.commercial === 'conditional'
        ? `commercial use conditional (${model.commercial_note ?? 'see licence'})`
        : null,
    model.field_of_use ? `field-of-use restrictions (${model.field_of_use_note ?? 'acceptable-use policy'})` : null,
    model.attribution ? 'attribution required' : null,
    model.no_derivatives ? 'no derivatives' : null,
  ].filter((x): x is string => !!x);
  return {
    // a known custom model licence with commercial or field-of-use terms is medium (corpus c035
    // Gemma, c064 Llama 3.1); prose mentions stay at low confidence
    severity: 'medium',
    confidence: isProse(p) ? 0.6 : 1,
    description: `${model.name}: ${terms.join('; ')}.`,
    evidence: {
      path: 'license',
      license: l,
      license_name: p.license_name,
      model_licence: model.id,
      commercial: model.commercial,
      field_of_use: model.field_of_use,
      attribution: model.attribution,
    },
  };
}

/**
 * Package metadata that its own tooling refuses to publish: npm `"private": true` (npm will not publish it), the PyPI
 * classifier `Private :: Do Not Upload` (PyPI rejects the upload), and a uv project that is not packaged
 * (`[tool.uv] package = false`, or a workspace root without a `[build-system]`). Such a file describes a repository's
 * own development setup, not something handed to others, so a missing licence field in it is not a licensing gap; the
 * repository's licence file covers the code.
 */
function neverPublished(p: ParsedManifest): boolean {
  const j = isObj(p.raw_json) ? p.raw_json : null;
  if (!j) return false;
  if (p.kind === 'npm_package') return j.private === true;
  if (p.kind !== 'pyproject') return false;
  const project = isObj(j.project) ? j.project : null;
  const classifiers = Array.isArray(project?.classifiers) ? project.classifiers : [];
  if (classifiers.some((c) => typeof c === 'string' && /^Private\s*::\s*Do Not Upload/i.test(c))) return true;
  const uv = isObj(j.tool) && isObj(j.tool.uv) ? j.tool.uv : null;
  return !!uv && (uv.package === false || (isObj(uv.workspace) && !isObj(j['build-system'])));
}

export const R08 = defineRule({
  id: 'R08',
  title: 'Licence missing',
  severity: 'medium',
  weight: 15,
  category: 'license',
  rationale: 'No declared licence: legal exposure and a provenance gap.',
  remediation: 'Ask the publisher for a licence or do not redistribute/use commercially.',
  attack_techniques: ['AML.T0010'],
  references: ['§3 R08 (+ AML.T0010)'],
  evaluate({ p, input }) {
    // a setup.cfg with no [metadata] name holds tool settings only (no package metadata to carry a licence)
    // the formats a licence belongs in are the format registry's (src/formats/, `carries: ['licence']`): not
    // configs, listings, client configs, registry server.json, tool lists, Modelfiles, container files or extension
    // manifests; no manifest at all still lacks one
    const carriesLicense = (p.kind === 'empty' || carries(p.kind, 'licence')) && !(p.kind === 'setup_cfg' && !p.name);
    if (p.licenses.length > 0 || p.license_text || !LICENSE_TYPES.has(input.asset_type) || !carriesLicense) return [];
    if (neverPublished(p)) return [];
    const hasManifest = p.kind !== 'empty';
    // Python project metadata names its licence in a field, a classifier or just a LICENSE file beside it, which
    // setuptools, hatchling and PEP 639 `license-files` ship by default: a missing field is a gap in the metadata, not
    // evidence that the code has no licence — low (docs/enrichment.md "Vulnerability calibration")
    const pythonMetadata = p.kind === 'pyproject' || p.kind === 'setup_cfg';
    return [
      {
        ...(pythonMetadata ? { severity: 'low' as const } : {}),
        confidence: hasManifest ? 1 : 0.6,
        description: hasManifest ? 'The manifest declares no licence.' : 'No manifest and no licence in metadata.',
        evidence: { path: 'license', manifest_kind: p.kind },
      },
    ];
  },
});

export const R09 = defineRule({
  id: 'R09',
  title: 'Non-commercial or research-only licence',
  severity: 'medium',
  weight: 15,
  category: 'license',
  rationale: 'cc-by-nc*, commercial: no, or research-only licence text forbid commercial use.',
  remediation: 'Get a commercial licence or replace the asset.',
  attack_techniques: [],
  references: ['§3 R09'],
  evaluate({ p }) {
    const out: Emission[] = [];
    const lic = p.licenses;
    for (const l of lic) {
      const model = knownModelLicence(p, l);
      if (model) {
        if (model.commercial === 'no') out.push(modelLicenceEmission(p, l, model));
      } else if (NON_COMMERCIAL.test(l))
        out.push({
          confidence: isProse(p) ? 0.3 : 1,
          description: `Licence ${l} forbids commercial use.`,
          evidence: { path: 'license', license: l },
        });
    }
    const card = p.card ?? {};
    if (card.commercial === false || (typeof card.commercial === 'string' && /^(no|false)$/i.test(card.commercial))) {
      out.push({
        description: 'Model card states commercial: no.',
        evidence: { path: 'commercial', value: card.commercial },
      });
    } else if (!lic.some((l) => NON_COMMERCIAL.test(l))) {
      const text = p.body ?? p.license_text ?? p.modelfile?.license ?? '';
      const m = text ? NON_COMMERCIAL_TEXT.exec(text) : null;
      // a licence text, or a card whose front matter says `other` (it defers to the text), states the licence itself
      if (m)
        out.push({
          confidence: p.kind === 'text' || (lic.length > 0 && lic.every(isOther)) ? 1 : 0.6,
          description: 'Licence text restricts use to (non-commercial) research.',
          evidence: { path: p.kind === 'text' ? 'license_text' : 'body', match: truncate(m[0], 120) },
        });
    }
    return out;
  },
});

export const R10 = defineRule({
  id: 'R10',
  title: 'Use-restricted or custom licence',
  severity: 'low',
  weight: 5,
  category: 'license',
  rationale: 'Llama/Gemma/OpenRAIL/other licences carry use restrictions that flow to derivatives.',
  remediation: 'Review the licence terms and record acceptance; propagate obligations downstream.',
  attack_techniques: [],
  references: ['§3 R10; also a custom licence text with use-restriction clauses (confidence 0.6)'],
  evaluate(ctx) {
    const { p } = ctx;
    const out: Emission[] = [];
    for (const l of p.licenses) {
      const model = knownModelLicence(p, l);
      if (model) {
        if (model.commercial !== 'no') out.push(modelLicenceEmission(p, l, model));
      } else if (!NON_COMMERCIAL.test(l) && isRestrictiveLicense(l.toLowerCase()))
        out.push({
          confidence: isProse(p) ? 0.3 : 1,
          description: `Licence ${l}${p.license_name ? ` (${p.license_name})` : ''} carries use restrictions.`,
          evidence: { path: 'license', license: l, license_name: p.license_name },
        });
    }
    // a licence shipped as text (MODEL_LICENSE, Modelfile LICENSE) rather than an id: custom by definition; R10 when
    // it restricts use (and R09 did not already classify it as non-commercial)
    const fullText = p.license_text && p.license_text !== 'prose' ? p.license_text : null;
    if (fullText && p.licenses.length === 0 && out.length === 0 && !fired(ctx, R09)) {
      const m = USE_RESTRICTION_TEXT.exec(fullText);
      if (m)
        out.push({
          confidence: 0.6,
          description: 'Custom licence text with use restrictions.',
          evidence: { path: 'license_text', match: truncate(m[0], 120) },
        });
    }
    return out;
  },
});

export const R11 = defineRule({
  id: 'R11',
  title: 'Declared licence conflicts with the base model licence',
  severity: 'medium',
  weight: 15,
  category: 'license',
  rationale: 'A derivative declares a more permissive licence than the base model it inherits from.',
  remediation: 'Apply the base model licence to the derivative.',
  attack_techniques: ['AML.T0010.003'],
  references: ['§3 R11 (base licence from metadata `base_model_license` or the vendor family)'],
  evaluate({ p, input }) {
    // a derivative declares a permissive licence while its base is from a vendor family with a restrictive licence
    const lic = p.licenses;
    const md = isObj(input.metadata) ? input.metadata : {};
    const baseLicense = typeof md.base_model_license === 'string' ? md.base_model_license : null;
    for (const b of p.base_models) {
      const org = b.includes('/') ? (b.split('/')[0] ?? '').toLowerCase() : '';
      const inherited = baseLicense ?? VENDOR_FAMILIES[org]?.license ?? null;
      if (!inherited || lic.length === 0) continue;
      const inhRestrictive = isRestrictiveLicense(inherited) || NON_COMMERCIAL.test(inherited);
      const declaredPermissive = lic.every((l) => {
        const i = normalizeLicense(l);
        return i.valid && !NON_COMMERCIAL.test(l) && !isRestrictiveLicense(l.toLowerCase());
      });
      if (inhRestrictive && declaredPermissive)
        return [
          {
            confidence: baseLicense ? 1 : 0.6,
            description: `Declares ${lic.join(', ')} but base model ${b} is under ${inherited}.`,
            evidence: { path: 'license', declared: lic, base_model: b, inherited },
          },
        ];
    }
    return [];
  },
});

export const R28 = defineRule({
  id: 'R28',
  title: 'Licence is not a valid SPDX identifier',
  severity: 'low',
  weight: 5,
  category: 'license',
  rationale:
    'A declared licence that is neither an SPDX id/expression nor a known Hugging Face licence id cannot be evaluated automatically.',
  remediation: 'Declare an SPDX identifier or LicenseRef with the licence text.',
  attack_techniques: [],
  references: ['extra: an unknown licence is a risk — SPDX validity via spdx-license-ids / spdx-expression-parse'],
  evaluate({ p }) {
    const out: Emission[] = [];
    for (const l of p.licenses) {
      if (knownModelLicence(p, l)) continue;
      const info = normalizeLicense(l);
      if (!info.valid && !info.hf_custom && !SEE_LICENSE_FILE.test(l))
        out.push({
          confidence: 1,
          description: `Licence "${truncate(l, 60)}" is not an SPDX identifier or expression.`,
          evidence: { path: 'license', license: truncate(l, 120) },
        });
    }
    return out;
  },
});
