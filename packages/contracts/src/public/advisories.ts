// GET /v1/advisories/{id} (docs/advisories.md "API"): one OSV advisory from the feeds the platform loaded, found by
// its id or any alias (CVE, GHSA, PYSEC). Advisories are public knowledge: the same for every org and mode.
import { z } from '../zod';
import { RISK_SEVERITIES } from './assets';

/** An OSV id or alias: letters, digits and `.`, `_`, `:`, `-` (CVE-2024-1, GHSA-xxxx-xxxx-xxxx, PYSEC-2023-18). */
export const ADVISORY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

export const ZAdvisoryParams = z.object({
  advisory_id: z
    .string()
    .regex(ADVISORY_ID_PATTERN, 'must be an OSV id or alias like CVE-2024-3660, GHSA-… or PYSEC-…')
    .openapi({ example: 'CVE-2022-45907' }),
});

const ZOsvEvent = z
  .object({
    introduced: z.string().optional(),
    fixed: z.string().optional(),
    last_affected: z.string().optional(),
    limit: z.string().optional(),
  })
  .openapi('OsvEvent');

export const ZAdvisoryAffected = z
  .object({
    ecosystem: z.string().openapi({ description: 'lower-cased OSV ecosystem: pypi, npm, go, …' }),
    name: z.string(),
    ranges: z.array(z.object({ type: z.string(), events: z.array(ZOsvEvent) })),
    versions: z.array(z.string()).openapi({ description: 'versions listed explicitly as affected' }),
  })
  .openapi('AdvisoryAffected');

const unix = (description: string) => z.number().int().openapi({ description });

export const ZAdvisory = z
  .object({
    object: z.literal('advisory'),
    id: z.string(),
    aliases: z.array(z.string()),
    source: z
      .string()
      .openapi({ description: 'the feed that last wrote the record (curated, pypa, or an imported feed)' }),
    summary: z.string(),
    severity: z.enum(RISK_SEVERITIES).nullable().openapi({
      description: "from the record's severity field or CVSS v3 vector; null when it has none (R23 then uses high)",
    }),
    published: unix('Unix seconds').nullable(),
    modified: unix('Unix seconds'),
    withdrawn: unix('Unix seconds; a withdrawn advisory is kept and never matched').nullable(),
    affected: z.array(ZAdvisoryAffected),
    references: z.array(z.string()).openapi({ description: 'reference URLs of the record' }),
    related: z.array(z.string()).openapi({
      description:
        'other loaded records that list the requested id as an alias (another feed on the same vulnerability)',
    }),
    url: z.string().openapi({ example: '/v1/advisories/CVE-2022-45907' }),
    osv: z.unknown().openapi({ description: 'the OSV record as imported' }),
  })
  .openapi('Advisory');
export type Advisory = z.infer<typeof ZAdvisory>;
