// GET /v1/overview (docs/public-api.md "Overview"): the org's inventory and risk in aggregate, computed by the
// database over every asset the org observed in the key's mode (the console's Overview page draws it).
import { z } from '../zod';
import { zQueryInt } from '../query';
import { RISK_SEVERITIES } from './assets';
import { THREAT_CATEGORIES, THREAT_SEVERITIES } from './threats';

export const OVERVIEW_DEFAULT_DAYS = 30;
export const OVERVIEW_MAX_DAYS = 90;

export const ZOverviewQuery = z
  .object({
    days: zQueryInt(1, OVERVIEW_MAX_DAYS)
      .optional()
      .openapi({ description: `UTC days of risk changes, today included (default ${OVERVIEW_DEFAULT_DAYS})` }),
  })
  .strict();

const count = (description: string) => z.number().int().min(0).openapi({ description });
const bySeverity = (what: string) =>
  z
    .object(
      Object.fromEntries(RISK_SEVERITIES.map((s) => [s, count(`${what} ${s}`)])) as Record<
        (typeof RISK_SEVERITIES)[number],
        z.ZodNumber
      >,
    )
    .strict();

export const ZOverview = z
  .object({
    object: z.literal('overview'),
    livemode: z.boolean(),
    generated: z.number().int().openapi({ description: 'when the figures were computed (Unix seconds)' }),
    assets: z.object({
      total: count('assets the org observed in this mode'),
      scored: count('assets with a score (enriched at least once)'),
      by_intrinsic_severity: bySeverity('assets whose shared (intrinsic) severity is'),
      by_effective_severity: bySeverity("assets whose severity in the org's view (after triage) is"),
    }),
    score_histogram: z
      .array(
        z.object({
          from: z.number().int(),
          to: z.number().int().openapi({ description: 'inclusive; the last bucket is 90–100' }),
          intrinsic: count('assets whose intrinsic score is in the bucket'),
          effective: count('assets whose effective score is in the bucket'),
        }),
      )
      .openapi({ description: 'ten buckets of ten score points' }),
    risk_changes: z.object({
      days: z.number().int(),
      data: z
        .array(
          z.object({
            day: z.string().openapi({ description: 'a UTC calendar day, YYYY-MM-DD', example: '2026-11-20' }),
            changes: count('enrichments that changed an asset score or severity'),
            up: count('of which the score rose'),
            down: count('of which the score fell'),
          }),
        )
        .openapi({ description: 'every day of the window, oldest first (zeros included)' }),
    }),
    top_rules: z
      .array(z.object({ rule_id: z.string(), assets: count('assets with an open finding of the rule') }))
      .openapi({ description: 'at most 10, most assets first' }),
    top_attack_techniques: z
      .array(z.object({ id: z.string(), assets: count('assets with an open finding naming the ATLAS technique') }))
      .openapi({ description: 'at most 10, most assets first' }),
    recent_threats: z
      .array(
        z.object({
          id: z.string(),
          title: z.string(),
          severity: z.enum(THREAT_SEVERITIES),
          category: z.enum(THREAT_CATEGORIES),
          matched_assets: count("the org's assets the threat matches"),
          last_matched: z.number().int().openapi({ description: 'the latest enrichment that recorded a match' }),
        }),
      )
      .openapi({ description: "at most 5 threats matching the org's assets, the latest matched first" }),
    enrichment_backlog: z.object({
      pending: count('assets waiting for their first or next enrichment'),
      failed: count('assets whose last enrichment failed'),
      stale: count('assets whose enrichment is out of date'),
    }),
  })
  .openapi('Overview');
export type Overview = z.infer<typeof ZOverview>;

const DAY = 86_400;
const T = 1_795_339_255;
const dayOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 10);
const EXAMPLE_CHANGES = [0, 2, 0, 5, 1, 0, 3].map((changes, i, all) => ({
  day: dayOf(T - (all.length - 1 - i) * DAY),
  changes,
  up: Math.ceil(changes / 2),
  down: Math.floor(changes / 2),
}));

/** GET /v1/overview?days=7 for an org with 1,284 assets (docs/public-api.md "Overview"). */
export const EXAMPLE_OVERVIEW: Overview = {
  object: 'overview',
  livemode: true,
  generated: T,
  assets: {
    total: 1284,
    scored: 1251,
    by_intrinsic_severity: { critical: 12, high: 140, medium: 402, low: 515, informational: 182 },
    by_effective_severity: { critical: 9, high: 121, medium: 398, low: 531, informational: 192 },
  },
  score_histogram: [182, 260, 140, 115, 130, 170, 102, 88, 52, 12].map((intrinsic, i) => ({
    from: i * 10,
    to: i === 9 ? 100 : i * 10 + 9,
    intrinsic,
    effective: i === 0 ? intrinsic + 10 : i === 7 ? intrinsic - 10 : intrinsic,
  })),
  risk_changes: { days: 7, data: EXAMPLE_CHANGES },
  top_rules: [
    { rule_id: 'R01', assets: 211 },
    { rule_id: 'R08', assets: 164 },
    { rule_id: 'R23', assets: 57 },
  ],
  top_attack_techniques: [
    { id: 'AML.T0010', assets: 230 },
    { id: 'AML.T0011.000', assets: 198 },
  ],
  recent_threats: [
    {
      id: 'thr_01m81bye277js3qqwbbgm64xhv',
      title: 'Backdoored LoRA adapter exfiltrates prompts',
      severity: 'high',
      category: 'malicious_model',
      matched_assets: 3,
      last_matched: T - 3600,
    },
  ],
  enrichment_backlog: { pending: 21, failed: 4, stale: 8 },
};
