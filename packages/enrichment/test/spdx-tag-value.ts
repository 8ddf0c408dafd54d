// An SPDX 2.3 tag-value parser for the round-trip tests of renderSpdxTagValue (src/aibom/tag-value.ts): the
// platform only writes tag-value, so the parser lives with the tests, not in the shipped package.

/**
 * Minimal SPDX 2.3 tag-value parser (lexer rules of spdx/tools-python: `Tag: value`, `#` comments, `<text>` blocks,
 * `PackageName` opens a package section). Turns TV back into the 2.3 JSON model for round-trip tests.
 */
export function parseSpdxTagValue(text: string): Record<string, unknown> {
  const pairs: Array<[string, string]> = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trim() || line.startsWith('#')) continue;
    const m = /^([A-Za-z]+):\s?(.*)$/.exec(line);
    if (!m || !m[1]) throw new Error(`line ${i + 1}: not a tag-value pair`);
    let v = m[2] ?? '';
    if (v.startsWith('<text>')) {
      // `</text>` cannot span a line break: test each new line, not the whole block again (that was quadratic)
      const block = [v.slice(6)];
      while (!(block[block.length - 1] ?? '').includes('</text>')) {
        i++;
        if (i >= lines.length) throw new Error('unterminated <text>');
        block.push(lines[i] ?? '');
      }
      const acc = block.join('\n');
      v = acc.slice(0, acc.indexOf('</text>'));
    }
    pairs.push([m[1], v]);
  }
  const doc: Record<string, unknown> = {};
  const creators: string[] = [];
  const packages: Array<Record<string, unknown>> = [];
  const rels: Array<Record<string, unknown>> = [];
  const ex: Array<Record<string, unknown>> = [];
  let pkg: Record<string, unknown> | null = null;
  let lastRel: Record<string, unknown> | null = null;
  let lastEx: Record<string, unknown> | null = null;
  let ann: Record<string, unknown> | null = null;
  let annTarget: string | null = null;
  const pendingAnn: Array<{ target: string; a: Record<string, unknown> }> = [];
  let created = '';
  for (const [tag, v] of pairs) {
    switch (tag) {
      case 'SPDXVersion':
        doc.spdxVersion = v;
        break;
      case 'DataLicense':
        doc.dataLicense = v;
        break;
      case 'SPDXID':
        if (pkg) pkg.SPDXID = v;
        else doc.SPDXID = v;
        break;
      case 'DocumentName':
        doc.name = v;
        break;
      case 'DocumentNamespace':
        doc.documentNamespace = v;
        break;
      case 'Creator':
        creators.push(v);
        break;
      case 'Created':
        created = v;
        break;
      case 'PackageName':
        pkg = { name: v };
        packages.push(pkg);
        break;
      case 'PackageVersion':
        if (pkg) pkg.versionInfo = v;
        break;
      case 'PackageSupplier':
        if (pkg) pkg.supplier = v;
        break;
      case 'PackageDownloadLocation':
        if (pkg) pkg.downloadLocation = v;
        break;
      case 'FilesAnalyzed':
        if (pkg) pkg.filesAnalyzed = v === 'true';
        break;
      case 'PackageChecksum':
        if (pkg) {
          const [alg, val] = v.split(/:\s*/);
          pkg.checksums = [...((pkg.checksums as unknown[]) ?? []), { algorithm: alg, checksumValue: val }];
        }
        break;
      case 'PackageLicenseConcluded':
        if (pkg) pkg.licenseConcluded = v;
        break;
      case 'PackageLicenseDeclared':
        if (pkg) pkg.licenseDeclared = v;
        break;
      case 'PackageCopyrightText':
        if (pkg) pkg.copyrightText = v;
        break;
      case 'ExternalRef':
        if (pkg) {
          const [c, t, ...loc] = v.split(' ');
          pkg.externalRefs = [
            ...((pkg.externalRefs as unknown[]) ?? []),
            { referenceCategory: c, referenceType: t, referenceLocator: loc.join(' ') },
          ];
        }
        break;
      case 'PrimaryPackagePurpose':
        if (pkg) pkg.primaryPackagePurpose = v.replace(/-/g, '_');
        break;
      case 'LicenseID':
        lastEx = { licenseId: v };
        ex.push(lastEx);
        pkg = null;
        break;
      case 'ExtractedText':
        if (lastEx) lastEx.extractedText = v;
        break;
      case 'LicenseName':
        if (lastEx) lastEx.name = v;
        break;
      case 'Relationship': {
        pkg = null;
        const [a, t, b] = v.split(/\s+/);
        lastRel = { spdxElementId: a, relationshipType: t, relatedSpdxElement: b };
        rels.push(lastRel);
        break;
      }
      case 'RelationshipComment':
        if (lastRel) lastRel.comment = v;
        break;
      case 'Annotator':
        pkg = null;
        ann = { annotator: v };
        annTarget = null;
        break;
      case 'AnnotationDate':
        if (ann) ann.annotationDate = v;
        break;
      case 'AnnotationType':
        if (ann) ann.annotationType = v;
        break;
      case 'SPDXREF':
        annTarget = v;
        break;
      case 'AnnotationComment':
        if (ann) {
          ann.comment = v;
          pendingAnn.push({ target: annTarget ?? 'SPDXRef-DOCUMENT', a: ann });
          ann = null;
        }
        break;
      default:
        throw new Error(`unknown tag ${tag}`);
    }
  }
  doc.creationInfo = { creators, created };
  for (const { target, a } of pendingAnn) {
    const p = packages.find((x) => x.SPDXID === target);
    if (p) p.annotations = [...((p.annotations as unknown[]) ?? []), a];
  }
  doc.packages = packages;
  doc.relationships = rels;
  if (ex.length) doc.hasExtractedLicensingInfos = ex;
  return doc;
}
