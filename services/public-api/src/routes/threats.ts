import { ApiError } from '@risk/common/errors';
import { defineRoute, RawResponse } from '@risk/common/http';
import {
  EXAMPLE_STIX_EXPORT_BUNDLE,
  EXAMPLE_STIX_IMPORT_BUNDLE,
  EXAMPLE_THREAT_IMPORT,
  EXAMPLE_CREATE_THREAT,
  EXAMPLE_THREAT,
  EXAMPLE_THREAT_LIST,
  EXAMPLE_THREAT_UPDATED,
  EXAMPLE_UPDATE_THREAT,
  STIX_MEDIA_TYPE,
  z,
  ZCreateThreatBody,
  ZListThreatsQuery,
  ZStixBundle,
  ZStixBundleBody,
  ZThreat,
  ZThreatExportQuery,
  ZThreatImport,
  ZThreatList,
  ZUpdateThreatBody,
} from '@risk/contracts';
import { exportThreat, exportThreats } from '../domain/threats/export-threats';
import { importThreats } from '../domain/threats/import-threats';
import { readDbOf, type AppDeps } from '../deps';
import { createThreat } from '../domain/threats/create-threat';
import { getThreat, listThreats } from '../domain/threats/list-threats';
import type { ThreatDeps } from '../domain/threats/reenrich';
import { updateThreat } from '../domain/threats/update-threat';
import { apiKey } from '../http/route';

const ZThreatParams = z.object({
  threat_id: z.string().min(1).max(100).openapi({ example: 'thr_01jd3q5k8m0000000000000000' }),
});

/**
 * THREAT_WRITES_PER_ORG_PER_HOUR (docs/security.md "Caps per org"): every threat written counts, per org and mode,
 * before it is written, whichever use case writes it (ThreatDeps.countWrites): 1 for a create or a change, and for an
 * import the number of threats it would create or change. The 429 releases the idempotency key like any failure.
 */
const threatDeps = (deps: AppDeps, requestId: string, auth: { org_id: string; livemode: boolean }): ThreatDeps => ({
  prisma: deps.prisma,
  producer: deps.producer,
  logger: deps.logger,
  requestId,
  countWrites: async (weight) =>
    deps.guard?.countThreatWrite(`${auth.org_id}:${auth.livemode ? 'live' : 'test'}`, weight),
});

/** STIX bundles go out as the TAXII 2.1 media type. */
const stixResponse = (bundle: unknown) => new RawResponse(`${STIX_MEDIA_TYPE};version=2.1`, JSON.stringify(bundle));
const stixContent = { [STIX_MEDIA_TYPE]: { schema: ZStixBundle, example: EXAMPLE_STIX_EXPORT_BUNDLE } };

/** /v1/threats (docs/threats.md): shared records; every org reads, the creating org updates. */
export const threatRoutes = [
  // literal paths before /threats/:threat_id
  defineRoute({
    method: 'post',
    path: '/threats/import',
    auth: apiKey('threats:write'),
    body: ZStixBundleBody,
    idempotency: 'middleware',
    doc: {
      summary: "Import a STIX 2.1 bundle into the org's threats (scope threats:write)",
      description:
        'Indicators (file SHA-256, URL, domain patterns), CVE vulnerabilities, ATLAS attack-patterns, malware, courses of ' +
        'action and relationships create or update threats; the report says per object what was imported, merged or ' +
        'skipped and why (docs/threats.md "STIX exchange"). A pattern that is not STIX is 400 and nothing is written.',
      response: { description: 'the import report', schema: ZThreatImport },
      examples: { request: EXAMPLE_STIX_IMPORT_BUNDLE, response: EXAMPLE_THREAT_IMPORT },
    },
    handler: ({ deps, auth, body, requestId }) => importThreats(threatDeps(deps, requestId, auth), auth, body),
  }),
  defineRoute({
    method: 'get',
    path: '/threats/export',
    auth: apiKey('threats:read'),
    query: ZThreatExportQuery,
    doc: {
      summary: "The org's threats as a STIX 2.1 bundle, newest first (scope threats:read)",
      description:
        'Deterministic ids (UUIDv5 of our ids): importing the bundle back merges. The next bundle is in the Link header ' +
        '(rel="next").',
      response: { description: 'a STIX 2.1 bundle', content: stixContent },
    },
    handler: async ({ deps, auth, query, res }) => {
      // an export tolerates replication lag (docs/scaling.md "Read replicas")
      const out = await exportThreats(readDbOf(deps).prisma, {
        ...query,
        org_id: auth.org_id,
        livemode: auth.livemode,
      });
      if (out.next) {
        const params = new URLSearchParams();
        if (query.category) params.set('category', query.category);
        if (query.severity) params.set('severity', query.severity);
        params.set('limit', String(query.limit));
        params.set('starting_after', out.next);
        res.setHeader('Link', `</v1/threats/export?${params.toString()}>; rel="next"`);
      }
      return stixResponse(out.bundle);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/threats/:threat_id/export',
    auth: apiKey('threats:read'),
    params: ZThreatParams,
    doc: {
      summary: 'One threat as a STIX 2.1 bundle (scope threats:read)',
      response: { description: 'a STIX 2.1 bundle', content: stixContent },
      errors: [404],
    },
    handler: async ({ deps, auth, params }) =>
      stixResponse(await exportThreat(deps.prisma, params.threat_id, auth.livemode)),
  }),
  defineRoute({
    method: 'post',
    path: '/threats',
    auth: apiKey('threats:write'),
    body: ZCreateThreatBody,
    status: 201,
    idempotency: 'middleware',
    doc: {
      examples: { request: EXAMPLE_CREATE_THREAT, response: EXAMPLE_THREAT },
      summary: 'Create a shared threat record (scope threats:write)',
      description: 'Creating a threat marks the assets it matches stale and re-enriches them (docs/threats.md).',
      response: { description: 'the created threat', schema: ZThreat },
    },
    handler: ({ deps, auth, body, requestId }) => createThreat(threatDeps(deps, requestId, auth), auth, body),
  }),
  defineRoute({
    method: 'get',
    path: '/threats',
    auth: apiKey('threats:read'),
    query: ZListThreatsQuery,
    doc: {
      examples: { response: EXAMPLE_THREAT_LIST },
      summary: 'List threats, newest first (scope threats:read)',
      response: { description: 'a list envelope of threats', schema: ZThreatList },
    },
    handler: ({ deps, auth, query }) => listThreats(readDbOf(deps).prisma, { ...query, livemode: auth.livemode }),
  }),
  defineRoute({
    method: 'get',
    path: '/threats/:threat_id',
    auth: apiKey('threats:read'),
    params: ZThreatParams,
    doc: {
      examples: { response: EXAMPLE_THREAT },
      summary: 'Retrieve a threat (scope threats:read)',
      response: { description: 'the threat', schema: ZThreat },
      errors: [404],
    },
    handler: async ({ deps, auth, params }) => {
      const threat = await getThreat(deps.prisma, params.threat_id, auth.livemode);
      if (!threat)
        throw new ApiError('resource_missing', {
          param: 'threat_id',
          message: `No such threat: '${params.threat_id}'.`,
        });
      return threat;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/threats/:threat_id',
    auth: apiKey('threats:write'),
    params: ZThreatParams,
    body: ZUpdateThreatBody,
    idempotency: 'middleware',
    doc: {
      examples: {
        request: EXAMPLE_UPDATE_THREAT,
        response: EXAMPLE_THREAT_UPDATED,
        errors: { 403: { code: 'not_owner', message: 'Only the org that created this threat can update it.' } },
      },
      summary: 'Update a threat; only the creating org may (scope threats:write)',
      description:
        'Partial update. A change re-evaluates matching: newly matched and no longer matched assets are re-enriched.',
      response: { description: 'the updated threat', schema: ZThreat },
      errors: [404],
    },
    handler: ({ deps, auth, params, body, requestId }) =>
      updateThreat(threatDeps(deps, requestId, auth), { actor: auth, id: params.threat_id, body }),
  }),
];
