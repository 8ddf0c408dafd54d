// An SPDX 2.3 tag-value parser for the round-trip tests of renderSpdxTagValue (src/aibom/tag-value.ts): the
// platform only writes tag-value, so the parser lives with the tests, not in the shipped package.

/** The `Tag: value` pairs of a tag-value text, in order, `<text>…</text>` blocks joined into one value. */
function tagValuePairs(text: string): Array<[string, string]> {
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
  return pairs;
}

/** Tags that set one field of the document, and of the package being read, as they are. */
const DOC_FIELDS: Record<string, string> = {
  SPDXVersion: 'spdxVersion',
  DataLicense: 'dataLicense',
  DocumentName: 'name',
  DocumentNamespace: 'documentNamespace',
};
const PACKAGE_FIELDS: Record<string, string> = {
  PackageVersion: 'versionInfo',
  PackageSupplier: 'supplier',
  PackageDownloadLocation: 'downloadLocation',
  PackageLicenseConcluded: 'licenseConcluded',
  PackageLicenseDeclared: 'licenseDeclared',
  PackageCopyrightText: 'copyrightText',
};

type Obj = Record<string, unknown>;
const append = (o: Obj, key: string, item: unknown) => (o[key] = [...((o[key] as unknown[]) ?? []), item]);

/** The sections being read: a package, an extracted licence, a relationship or an annotation (tag order decides). */
interface Reading {
  doc: Obj;
  creators: string[];
  created: string;
  packages: Obj[];
  relationships: Obj[];
  extracted: Obj[];
  pkg: Obj | null;
  lastRel: Obj | null;
  lastEx: Obj | null;
  ann: Obj | null;
  annTarget: string | null;
  annotations: Array<{ target: string; a: Obj }>;
}

/** A package tag other than the plain fields; false when the tag is not one. */
function readPackageTag(r: Reading, tag: string, v: string): boolean {
  const pkg = r.pkg;
  switch (tag) {
    case 'FilesAnalyzed':
      if (pkg) pkg.filesAnalyzed = v === 'true';
      return true;
    case 'PackageChecksum': {
      const [alg, val] = v.split(/:\s*/);
      if (pkg) append(pkg, 'checksums', { algorithm: alg, checksumValue: val });
      return true;
    }
    case 'ExternalRef': {
      const [c, t, ...loc] = v.split(' ');
      if (pkg) append(pkg, 'externalRefs', { referenceCategory: c, referenceType: t, referenceLocator: loc.join(' ') });
      return true;
    }
    case 'PrimaryPackagePurpose':
      if (pkg) pkg.primaryPackagePurpose = v.replace(/-/g, '_');
      return true;
    default:
      return false;
  }
}

/** A licence, relationship or annotation tag; false when the tag is not one. */
function readOtherTag(r: Reading, tag: string, v: string): boolean {
  switch (tag) {
    case 'LicenseID':
      r.lastEx = { licenseId: v };
      r.extracted.push(r.lastEx);
      r.pkg = null;
      return true;
    case 'ExtractedText':
      if (r.lastEx) r.lastEx.extractedText = v;
      return true;
    case 'LicenseName':
      if (r.lastEx) r.lastEx.name = v;
      return true;
    case 'Relationship': {
      const [a, t, b] = v.split(/\s+/);
      r.pkg = null;
      r.lastRel = { spdxElementId: a, relationshipType: t, relatedSpdxElement: b };
      r.relationships.push(r.lastRel);
      return true;
    }
    case 'RelationshipComment':
      if (r.lastRel) r.lastRel.comment = v;
      return true;
    case 'Annotator':
      r.pkg = null;
      r.ann = { annotator: v };
      r.annTarget = null;
      return true;
    case 'AnnotationDate':
      if (r.ann) r.ann.annotationDate = v;
      return true;
    case 'AnnotationType':
      if (r.ann) r.ann.annotationType = v;
      return true;
    case 'SPDXREF':
      r.annTarget = v;
      return true;
    case 'AnnotationComment':
      if (r.ann) {
        r.ann.comment = v;
        r.annotations.push({ target: r.annTarget ?? 'SPDXRef-DOCUMENT', a: r.ann });
        r.ann = null;
      }
      return true;
    default:
      return false;
  }
}

/**
 * Minimal SPDX 2.3 tag-value parser (lexer rules of spdx/tools-python: `Tag: value`, `#` comments, `<text>` blocks,
 * `PackageName` opens a package section). Turns TV back into the 2.3 JSON model for round-trip tests.
 */
export function parseSpdxTagValue(text: string): Record<string, unknown> {
  const r: Reading = {
    doc: {},
    creators: [],
    created: '',
    packages: [],
    relationships: [],
    extracted: [],
    pkg: null,
    lastRel: null,
    lastEx: null,
    ann: null,
    annTarget: null,
    annotations: [],
  };
  for (const [tag, v] of tagValuePairs(text)) {
    const docField = DOC_FIELDS[tag];
    const packageField = PACKAGE_FIELDS[tag];
    if (docField) r.doc[docField] = v;
    else if (packageField) {
      if (r.pkg) r.pkg[packageField] = v;
    } else if (tag === 'SPDXID') (r.pkg ?? r.doc).SPDXID = v;
    else if (tag === 'Creator') r.creators.push(v);
    else if (tag === 'Created') r.created = v;
    else if (tag === 'PackageName') r.packages.push((r.pkg = { name: v }));
    else if (!readPackageTag(r, tag, v) && !readOtherTag(r, tag, v)) throw new Error(`unknown tag ${tag}`);
  }
  const doc = r.doc;
  doc.creationInfo = { creators: r.creators, created: r.created };
  for (const { target, a } of r.annotations) {
    const p = r.packages.find((x) => x.SPDXID === target);
    if (p) append(p, 'annotations', a);
  }
  doc.packages = r.packages;
  doc.relationships = r.relationships;
  if (r.extracted.length) doc.hasExtractedLicensingInfos = r.extracted;
  return doc;
}
