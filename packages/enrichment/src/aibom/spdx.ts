// SPDX 2.3 JSON rendering of the AI-BOM model (docs/enrichment.md "AI-BOM").
import {
  BomComponent,
  BomModel,
  NAMESPACE_BASE,
  TOOL_NAME,
  TOOL_VERSION,
  artifactVerdictText,
  uriComponent,
  uuidFromHash,
} from './model';
import { stableStringify } from '../util';

const PURPOSE: Record<BomComponent['type'], string> = {
  model: 'OTHER',
  dataset: 'OTHER',
  library: 'LIBRARY',
  mcp_server: 'APPLICATION',
  tool: 'OTHER',
  file: 'FILE',
  agent: 'OTHER',
  application: 'APPLICATION',
  prompt: 'OTHER',
  container_image: 'CONTAINER',
  extension: 'APPLICATION',
  notebook: 'SOURCE',
};

export function buildSpdx(m: BomModel, hash: string, created: string): Record<string, unknown> {
  const tool = `Tool: ${TOOL_NAME}-${TOOL_VERSION}`;
  const packages = m.components.map((c) => {
    const pkg: Record<string, unknown> = { name: c.name, SPDXID: c.ref };
    if (c.version) pkg.versionInfo = c.version;
    pkg.supplier = c.supplier ? `Organization: ${c.supplier.replace(/[()\n]/g, ' ')}` : 'NOASSERTION';
    pkg.downloadLocation =
      c.download_location && /^(https?|git\+https?|git):\/\/\S+$/.test(c.download_location)
        ? c.download_location
        : 'NOASSERTION';
    pkg.filesAnalyzed = false;
    if (c.hashes.length) pkg.checksums = c.hashes.map((h) => ({ algorithm: 'SHA256', checksumValue: h.content }));
    pkg.licenseConcluded = 'NOASSERTION';
    pkg.licenseDeclared = c.license ?? 'NOASSERTION';
    pkg.copyrightText = 'NOASSERTION';
    if (c.purl)
      pkg.externalRefs = [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: c.purl }];
    else if (c.type === 'dataset' && /^[\w.-]+(\/[\w.-]+)?$/.test(c.name))
      pkg.externalRefs = [
        { referenceCategory: 'OTHER', referenceType: 'huggingface-dataset', referenceLocator: c.name },
      ];
    pkg.primaryPackagePurpose = PURPOSE[c.type];
    if (c.primary) {
      pkg.annotations = [
        { annotator: tool, annotationDate: created, annotationType: 'OTHER', comment: stableStringify(m.ai) },
      ];
    }
    // a file the platform's analyser judged: its verdict as a review annotation (docs/artifacts.md "AI-BOM")
    if (c.artifact)
      pkg.annotations = [
        {
          annotator: tool,
          annotationDate: created,
          annotationType: 'REVIEW',
          comment: artifactVerdictText(c.artifact),
        },
      ];
    return pkg;
  });
  const doc: Record<string, unknown> = {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: m.document_name,
    documentNamespace: `${NAMESPACE_BASE}/${uriComponent(m.fingerprint).replace(/%/g, '')}/${uuidFromHash(hash)}`,
    creationInfo: { creators: [tool, 'Organization: Risk Intelligence'], created },
    packages,
    relationships: m.relationships.map((r) => {
      const o: Record<string, unknown> = { spdxElementId: r.from, relationshipType: r.type, relatedSpdxElement: r.to };
      if (r.comment) o.comment = r.comment;
      return o;
    }),
  };
  if (m.extracted_licenses.length)
    doc.hasExtractedLicensingInfos = m.extracted_licenses.map((l) => ({
      licenseId: l.id,
      extractedText: l.text,
      name: l.name,
    }));
  return doc;
}
