import type { ApiKeyAuthenticator } from '@risk/common';
import { ApiError, ZListQuery } from '@risk/common';
import { ZCreateThreatBody, ZListThreatsQuery as ZListThreatsContract, ZUpdateThreatBody } from '@risk/contracts';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { defineRoute, mountRoutes } from '../http/route';
import { createThreat } from '../domain/threats/create-threat';
import { getThreat, listThreats } from '../domain/threats/list-threats';
import type { ThreatDeps } from '../domain/threats/reenrich';
import { updateThreat } from '../domain/threats/update-threat';

const ZThreatParams = z.object({ threat_id: z.string().min(1).max(100) });
// the contract's filters on the server's page parameters (default limit, cursor checks)
const ZListThreatsQuery = ZListQuery.extend(
  ZListThreatsContract.pick({ category: true, severity: true, affected_asset_type: true }).shape,
);

const threatDeps = (deps: AppDeps): ThreatDeps => ({ db: deps.prisma, producer: deps.producer, logger: deps.logger });

/**
 * THREAT_WRITES_PER_ORG_PER_HOUR (docs/security.md "Rate limits and caps"): every validated create or
 * update counts, per org and mode, before it writes; the 429 releases the idempotency key like any failure.
 */
const countThreatWrite = (deps: AppDeps, auth: { org_id: string; livemode: boolean }) =>
  deps.guard?.countThreatWrite(`${auth.org_id}:${auth.livemode ? 'live' : 'test'}`);

/** /v1/threats (docs/threats.md): shared records; every org reads, the creating org updates. */
export function threatsRouter(deps: AppDeps, authenticator: ApiKeyAuthenticator): Router {
  return mountRoutes(Router(), deps, authenticator, [
    defineRoute({
      method: 'post',
      path: '/threats',
      scope: 'threats:write',
      body: ZCreateThreatBody,
      status: 201,
      handler: async ({ deps, auth, body }) => {
        await countThreatWrite(deps, auth);
        return createThreat(threatDeps(deps), auth, body);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/threats',
      scope: 'threats:read',
      query: ZListThreatsQuery,
      handler: ({ deps, auth, query }) => listThreats(deps.prisma, { ...query, livemode: auth.livemode }),
    }),
    defineRoute({
      method: 'get',
      path: '/threats/:threat_id',
      scope: 'threats:read',
      params: ZThreatParams,
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
      scope: 'threats:write',
      params: ZThreatParams,
      body: ZUpdateThreatBody,
      handler: async ({ deps, auth, params, body }) => {
        await countThreatWrite(deps, auth);
        return updateThreat(threatDeps(deps), auth, params.threat_id, body);
      },
    }),
  ]);
}
