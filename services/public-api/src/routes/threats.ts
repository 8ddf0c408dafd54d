import { ApiError, defineRoute } from '@risk/common';
import { z, ZCreateThreatBody, ZListThreatsQuery, ZThreat, ZThreatList, ZUpdateThreatBody } from '@risk/contracts';
import type { AppDeps } from '../deps';
import { createThreat } from '../domain/threats/create-threat';
import { getThreat, listThreats } from '../domain/threats/list-threats';
import type { ThreatDeps } from '../domain/threats/reenrich';
import { updateThreat } from '../domain/threats/update-threat';
import { apiKey } from '../http/route';

const ZThreatParams = z.object({
  threat_id: z.string().min(1).max(100).openapi({ example: 'thr_01jd3q5k8m0000000000000000' }),
});

const threatDeps = (deps: AppDeps): ThreatDeps => ({ db: deps.prisma, producer: deps.producer, logger: deps.logger });

/**
 * THREAT_WRITES_PER_ORG_PER_HOUR (docs/security.md "Rate limits and caps"): every validated create or
 * update counts, per org and mode, before it writes; the 429 releases the idempotency key like any failure.
 */
const countThreatWrite = (deps: AppDeps, auth: { org_id: string; livemode: boolean }) =>
  deps.guard?.countThreatWrite(`${auth.org_id}:${auth.livemode ? 'live' : 'test'}`);

/** /v1/threats (docs/threats.md): shared records; every org reads, the creating org updates. */
export const threatRoutes = [
  defineRoute({
    method: 'post',
    path: '/threats',
    auth: apiKey('threats:write'),
    body: ZCreateThreatBody,
    status: 201,
    idempotency: 'middleware',
    doc: {
      summary: 'Create a shared threat record (scope threats:write)',
      description: 'Creating a threat marks the assets it matches stale and re-enriches them (docs/threats.md).',
      response: { description: 'the created threat', schema: ZThreat },
    },
    handler: async ({ deps, auth, body }) => {
      await countThreatWrite(deps, auth);
      return createThreat(threatDeps(deps), auth, body);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/threats',
    auth: apiKey('threats:read'),
    query: ZListThreatsQuery,
    doc: {
      summary: 'List threats, newest first (scope threats:read)',
      response: { description: 'a list envelope of threats', schema: ZThreatList },
    },
    handler: ({ deps, auth, query }) => listThreats(deps.prisma, { ...query, livemode: auth.livemode }),
  }),
  defineRoute({
    method: 'get',
    path: '/threats/:threat_id',
    auth: apiKey('threats:read'),
    params: ZThreatParams,
    doc: {
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
      summary: 'Update a threat; only the creating org may (scope threats:write)',
      description:
        'Partial update. A change re-evaluates matching: newly matched and no longer matched assets are re-enriched.',
      response: { description: 'the updated threat', schema: ZThreat },
      errors: [404],
    },
    handler: async ({ deps, auth, params, body }) => {
      await countThreatWrite(deps, auth);
      return updateThreat(threatDeps(deps), auth, params.threat_id, body);
    },
  }),
];
