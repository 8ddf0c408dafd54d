// STIX 2.1 exchange contracts (docs/threats.md "STIX exchange", docs/formats.md "STIX"): the bundle POST
// /v1/threats/import takes, the per-object report it answers, and the export query. The bundle is checked here for
// shape, size and nesting before anything reads it; what each object means is decided by @risk/enrichment.
import { z } from '../zod';
import { ZListQuery } from '../common';
import { jsonDepth } from '../json-depth';
import { zQueryInt } from '../query';
import { THREAT_CATEGORIES, THREAT_SEVERITIES } from './threats';

export const STIX_IMPORT_MAX_OBJECTS = 1000;
/** Deepest nesting of arrays and objects in a bundle (the bundle itself is depth 1). */
export const STIX_IMPORT_MAX_DEPTH = 16;
export const STIX_EXPORT_MAX_THREATS = 500;
export const STIX_MEDIA_TYPE = 'application/stix+json';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPE = /^[a-z][a-z0-9-]{1,249}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

/** `<type>--<uuid>` (checked without a regular expression over the whole id: the type part is split off first). */
export function isStixId(id: string, type?: string): boolean {
  const cut = id.indexOf('--');
  if (cut < 1) return false;
  const prefix = id.slice(0, cut);
  return (type === undefined ? TYPE.test(prefix) : prefix === type) && UUID.test(id.slice(cut + 2));
}

const zStixString = (max: number) => z.string().max(max);

export const ZStixObject = z
  .object({
    type: z.string().regex(TYPE, 'must be a STIX type (lower case, digits, -)'),
    id: z.string().max(300),
    spec_version: z.string().max(10).optional(),
    created: zStixString(40).regex(TIMESTAMP, 'must be a STIX timestamp').optional(),
    modified: zStixString(40).regex(TIMESTAMP, 'must be a STIX timestamp').optional(),
    name: zStixString(10_000).optional(),
    description: zStixString(100_000).optional(),
    pattern: zStixString(16 * 1024).optional(),
    pattern_type: zStixString(100).optional(),
    source_ref: zStixString(300).optional(),
    target_ref: zStixString(300).optional(),
    confidence: z.int().min(0).max(100).optional(),
    revoked: z.boolean().optional(),
  })
  .catchall(z.unknown())
  .superRefine((o, ctx) => {
    if (!isStixId(o.id, o.type)) ctx.addIssue({ code: 'custom', path: ['id'], message: `must be '${o.type}--<uuid>'` });
    if (o.type === 'indicator' && (o.pattern === undefined || o.pattern_type === undefined))
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'an indicator needs pattern and pattern_type' });
    if (o.type === 'relationship')
      for (const key of ['source_ref', 'target_ref'] as const)
        if (!o[key] || !isStixId(o[key]))
          ctx.addIssue({ code: 'custom', path: [key], message: 'must be a STIX identifier' });
  })
  .openapi('StixObject', { description: 'a STIX 2.1 object (SDO, SRO, SCO, marking); other properties pass through' });

export const ZStixBundleBody = z
  .strictObject({
    type: z.literal('bundle'),
    id: z.string().refine((id) => isStixId(id, 'bundle'), "must be 'bundle--<uuid>'"),
    spec_version: z.string().max(10).optional().openapi({ description: 'STIX 2.0 bundles carried one' }),
    objects: z.array(ZStixObject).min(1).max(STIX_IMPORT_MAX_OBJECTS),
  })
  .superRefine((b, ctx) => {
    if (jsonDepth(b, STIX_IMPORT_MAX_DEPTH) > STIX_IMPORT_MAX_DEPTH)
      ctx.addIssue({ code: 'custom', path: ['objects'], message: `nested more than ${STIX_IMPORT_MAX_DEPTH} deep` });
    const seen = new Map<string, number>();
    b.objects.forEach((o, i) => {
      const first = seen.get(o.id);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: ['objects', i, 'id'], message: `repeats objects[${first}].id` });
      else seen.set(o.id, i);
    });
  })
  .openapi('StixBundle', {
    description: `a STIX 2.1 bundle: 1–${STIX_IMPORT_MAX_OBJECTS} objects, nesting at most ${STIX_IMPORT_MAX_DEPTH} deep, ids unique`,
  });
export type StixBundleBody = z.infer<typeof ZStixBundleBody>;

export const STIX_IMPORT_STATUSES = ['imported', 'merged', 'skipped'] as const;

export const ZThreatImportResult = z
  .object({
    stix_id: z.string(),
    type: z.string(),
    status: z.enum(STIX_IMPORT_STATUSES).openapi({
      description:
        'imported: a new threat; merged: updated an existing threat, or merged into a threat of this bundle; skipped: see reason',
    }),
    reason: z.string().nullable().openapi({ description: 'a code (docs/threats.md "STIX exchange")' }),
    message: z.string(),
    threat_ids: z.array(z.string()),
    changed: z.boolean().openapi({ description: 'whether the threat was written (false: already up to date)' }),
  })
  .openapi('ThreatImportResult');

export const ZThreatImport = z
  .object({
    object: z.literal('threat_import'),
    bundle_id: z.string(),
    livemode: z.boolean(),
    summary: z.object({ imported: z.number().int(), merged: z.number().int(), skipped: z.number().int() }),
    results: z.array(ZThreatImportResult).openapi({ description: 'one per object, in bundle order' }),
  })
  .openapi('ThreatImport');
export type ThreatImport = z.infer<typeof ZThreatImport>;
export type ThreatImportResult = z.infer<typeof ZThreatImportResult>;

export const ZThreatExportQuery = z.strictObject({
  category: z.enum(THREAT_CATEGORIES).optional(),
  severity: z.enum(THREAT_SEVERITIES).optional(),
  limit: zQueryInt(1, STIX_EXPORT_MAX_THREATS)
    .default(STIX_EXPORT_MAX_THREATS)
    .openapi({ description: `threats per bundle, 1–${STIX_EXPORT_MAX_THREATS}` }),
  starting_after: ZListQuery.shape.starting_after,
});

/** A STIX 2.1 bundle as exported (validated against the OASIS schemas in the tests). */
export const ZStixBundle = z
  .object({ type: z.literal('bundle'), id: z.string(), objects: z.array(z.record(z.string(), z.unknown())) })
  .openapi('StixBundleExport');
