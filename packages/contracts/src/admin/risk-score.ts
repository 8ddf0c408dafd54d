// The URL risk-score tool's answer (docs/admin-api.md).
import { z } from '../zod';
import { FEED_SEVERITY_VALUES } from './feeds';
import { FILTER_ACTION_VALUES } from './policies';

/** Why a URL matched a min_asset_severity rule: the feed entry and its origin (docs/feeds.md). */
export const ZFeedMatch = z
  .object({
    severity: z.enum(FEED_SEVERITY_VALUES).describe('the most severe feed cut that lists the URL'),
    entry_type: z.enum(['domain', 'url']),
    entry: z.string().describe('the feed line that covers the URL (a domain covers its subdomains)'),
    origin: z
      .enum(['block_list', 'asset', 'ai_domain'])
      .describe("the tenant's block list, one of its org's application assets, or an AI domain (shipped or imported)"),
    asset_fingerprint: z.string().nullable().describe('origin asset: the asset whose risk put the host in the feed'),
    ai_category: z.string().nullable().describe('origin ai_domain: the AI category of the domain'),
    score: z.number().int().nullable().describe("the entry's 0–100 risk; null for the block list (in every cut)"),
  })
  .openapi('FeedMatch');

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
        feed_match: ZFeedMatch.nullable().describe('set when matched_on is min_asset_severity'),
      }),
    ),
  })
  .openapi('UrlRiskScore');
