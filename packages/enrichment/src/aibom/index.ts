// The AI-BOM: one model (model.ts, build.ts) rendered as SPDX 2.3 JSON, SPDX tag-value and CycloneDX 1.6
// (docs/enrichment.md "AI-BOM").
export { buildBomModel } from './build';
export { buildCycloneDx } from './cyclonedx';
export { contentHash, isoSeconds, type BomModel } from './model';
export { buildSpdx } from './spdx';
export { parseSpdxTagValue, renderSpdxTagValue } from './tag-value';
