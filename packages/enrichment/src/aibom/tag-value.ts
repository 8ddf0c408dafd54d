// SPDX 2.3 tag-value, rendered from the SPDX JSON document (docs/enrichment.md "AI-BOM"); the round-trip tests
// parse it back with test/spdx-tag-value.ts.

const tv = (v: string): string => (v.includes('\n') ? `<text>${v}</text>` : v);

export function renderSpdxTagValue(spdx: Record<string, unknown>): string {
  const L: string[] = [];
  const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const ci = (spdx.creationInfo ?? {}) as Record<string, unknown>;
  L.push(
    `SPDXVersion: ${s(spdx.spdxVersion)}`,
    `DataLicense: ${s(spdx.dataLicense)}`,
    `SPDXID: ${s(spdx.SPDXID)}`,
    `DocumentName: ${tv(s(spdx.name))}`,
    `DocumentNamespace: ${s(spdx.documentNamespace)}`,
  );
  for (const c of (ci.creators as unknown[] | undefined) ?? []) L.push(`Creator: ${s(c)}`);
  L.push(`Created: ${s(ci.created)}`);
  const annotations: Array<{ target: string; a: Record<string, unknown> }> = [];
  for (const p of (spdx.packages as Array<Record<string, unknown>> | undefined) ?? []) {
    L.push('', `PackageName: ${tv(s(p.name))}`, `SPDXID: ${s(p.SPDXID)}`);
    if (p.versionInfo !== undefined) L.push(`PackageVersion: ${tv(s(p.versionInfo))}`);
    if (p.supplier !== undefined) L.push(`PackageSupplier: ${s(p.supplier)}`);
    L.push(`PackageDownloadLocation: ${s(p.downloadLocation)}`);
    if (p.filesAnalyzed !== undefined) L.push(`FilesAnalyzed: ${p.filesAnalyzed ? 'true' : 'false'}`);
    for (const c of (p.checksums as Array<Record<string, unknown>> | undefined) ?? [])
      L.push(`PackageChecksum: ${s(c.algorithm)}: ${s(c.checksumValue)}`);
    if (p.licenseConcluded !== undefined) L.push(`PackageLicenseConcluded: ${s(p.licenseConcluded)}`);
    if (p.licenseDeclared !== undefined) L.push(`PackageLicenseDeclared: ${s(p.licenseDeclared)}`);
    if (p.copyrightText !== undefined) L.push(`PackageCopyrightText: ${tv(s(p.copyrightText))}`);
    for (const r of (p.externalRefs as Array<Record<string, unknown>> | undefined) ?? []) {
      L.push(`ExternalRef: ${s(r.referenceCategory)} ${s(r.referenceType)} ${s(r.referenceLocator)}`);
      if (r.comment !== undefined) L.push(`ExternalRefComment: <text>${s(r.comment)}</text>`);
    }
    if (p.primaryPackagePurpose !== undefined)
      L.push(`PrimaryPackagePurpose: ${s(p.primaryPackagePurpose).replace(/_/g, '-')}`);
    for (const a of (p.annotations as Array<Record<string, unknown>> | undefined) ?? [])
      annotations.push({ target: s(p.SPDXID), a });
  }
  const ex = (spdx.hasExtractedLicensingInfos as Array<Record<string, unknown>> | undefined) ?? [];
  if (ex.length) L.push('');
  for (const e of ex) {
    L.push(`LicenseID: ${s(e.licenseId)}`, `ExtractedText: <text>${s(e.extractedText)}</text>`);
    if (e.name !== undefined) L.push(`LicenseName: ${tv(s(e.name))}`);
  }
  const rels = (spdx.relationships as Array<Record<string, unknown>> | undefined) ?? [];
  if (rels.length) L.push('', '## Relationships');
  for (const r of rels) {
    L.push(`Relationship: ${s(r.spdxElementId)} ${s(r.relationshipType)} ${s(r.relatedSpdxElement)}`);
    if (r.comment !== undefined) L.push(`RelationshipComment: <text>${s(r.comment)}</text>`);
  }
  for (const { target, a } of annotations) {
    L.push(
      '',
      `Annotator: ${s(a.annotator)}`,
      `AnnotationDate: ${s(a.annotationDate)}`,
      `AnnotationType: ${s(a.annotationType)}`,
      `SPDXREF: ${target}`,
      `AnnotationComment: <text>${s(a.comment)}</text>`,
    );
  }
  return L.join('\n') + '\n';
}
