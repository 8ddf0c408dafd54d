// Validators for the AI-BOM documents: the official SPDX 2.3 schema (ajv, draft-07), the checks that schema
// leaves out (research aibom.md §1, §5), and @cyclonedx/cyclonedx-library's CycloneDX 1.6 JSON validator.
import Ajv from 'ajv';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import spdxExpressionParse from 'spdx-expression-parse';
import spdxSchema from './schemas/spdx-2.3-schema.json';

const ajv = new Ajv({ allErrors: true, strict: false });
export const validateSpdx = ajv.compile(spdxSchema);
export const cdxValidator = new Validation.JsonValidator(Spec.Version.v1dot6);

const SPDX_ID = /^SPDXRef-[A-Za-z0-9.-]+$/;
export type Pkg = {
  SPDXID: string;
  licenseDeclared?: string;
  licenseConcluded?: string;
  externalRefs?: Array<{ referenceCategory: string }>;
  annotations?: Array<{ annotationDate: string; comment: string }>;
};
export type Rel = { spdxElementId: string; relationshipType: string; relatedSpdxElement: string; comment?: string };

/** The checks the 2.3 schema leaves out (aibom.md §1, §5). Returns a list of problems. */
export function semanticSpdxProblems(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  const ns = String(doc.documentNamespace ?? '');
  try {
    const u = new URL(ns);
    if (!u.protocol) out.push('namespace scheme');
  } catch {
    out.push('namespace not a URI');
  }
  if (ns.includes('#')) out.push('namespace has #');
  if (doc.dataLicense !== 'CC0-1.0') out.push('dataLicense');
  if (doc.SPDXID !== 'SPDXRef-DOCUMENT') out.push('doc SPDXID');
  const created = (doc.creationInfo as { created: string }).created;
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(created)) out.push(`created ${created}`);
  const pkgs = doc.packages as Pkg[];
  const idList = ['SPDXRef-DOCUMENT', ...pkgs.map((p) => p.SPDXID)];
  if (new Set(idList).size !== idList.length) out.push('duplicate SPDXIDs');
  for (const id of idList) if (!SPDX_ID.test(id) && id !== 'SPDXRef-DOCUMENT') out.push(`bad id ${id}`);
  const rels = doc.relationships as Rel[];
  if (!rels.some((r) => r.spdxElementId === 'SPDXRef-DOCUMENT' && r.relationshipType === 'DESCRIBES'))
    out.push('no DESCRIBES');
  for (const r of rels)
    for (const e of [r.spdxElementId, r.relatedSpdxElement]) if (!idList.includes(e)) out.push(`dangling ${e}`);
  const refs = new Set(
    ((doc.hasExtractedLicensingInfos as Array<{ licenseId: string }>) ?? []).map((x) => x.licenseId),
  );
  for (const p of pkgs) {
    for (const l of [p.licenseDeclared, p.licenseConcluded]) {
      if (!l || l === 'NOASSERTION' || l === 'NONE') continue;
      try {
        spdxExpressionParse(l);
      } catch {
        out.push(`bad licence expression ${l}`);
      }
      for (const m of l.matchAll(/LicenseRef-[A-Za-z0-9.-]+/g))
        if (!refs.has(m[0])) out.push(`LicenseRef without text ${m[0]}`);
    }
    for (const r of p.externalRefs ?? [])
      if (!['SECURITY', 'PACKAGE-MANAGER', 'PERSISTENT-ID', 'OTHER'].includes(r.referenceCategory))
        out.push('ref category');
    for (const a of p.annotations ?? [])
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(a.annotationDate)) out.push('annotation date');
  }
  return out;
}
