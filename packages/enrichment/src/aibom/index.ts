// The AI-BOM: one model (model.ts, build.ts) rendered as SPDX 2.3 JSON, SPDX tag-value and CycloneDX 1.6, and SPDX 3.0.1
// JSON-LD from the stored AI-BOM (spdx3.ts)
// (docs/enrichment.md "AI-BOM").
export { buildBomModel } from './build';
export { buildCycloneDx } from './cyclonedx';
export { contentHash, isoSeconds } from './model';
export { buildSpdx } from './spdx';
export { buildSpdx3, spdx3InputFromStored, SPDX3_CONTEXT, type StoredComponent } from './spdx3';
export { renderSpdxTagValue } from './tag-value';
export {
  componentsWithClientReports,
  cycloneDxWithClientReports,
  spdxWithClientReports,
  type BomClientReport,
} from './client-reported';
