// The URL risk-score tool's answer (docs/admin-api.md).
import { z } from '../zod';
import { FILTER_ACTION_VALUES } from './policies';

export const ZRiskScore = z
  .object({
    object: z.literal('url_risk_score'),
    url: z.string(),
    normalized_url: z.string(),
    host: z.string(),
    registrable_domain: z.string().nullable(),
    categories: z.array(z.string()),
    ai_category: z.string().nullable(),
    vendor: z.string().nullable(),
    risk_score: z.number().int(),
    severity: z.enum(['critical', 'high', 'medium', 'low', 'informational']),
    factors: z.array(z.object({ code: z.string(), points: z.number(), evidence: z.string() })),
    scoring_version: z.string(),
    action: z.enum(FILTER_ACTION_VALUES).nullable(),
    policy_decisions: z.array(
      z.object({
        policy_id: z.string(),
        policy_name: z.string(),
        action: z.enum(FILTER_ACTION_VALUES),
        rule_id: z.string().nullable(),
        matched_on: z.string(),
      }),
    ),
  })
  .openapi('UrlRiskScore');
