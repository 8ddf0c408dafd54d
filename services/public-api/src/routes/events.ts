import type { ApiKeyAuthenticator } from '@risk/common';
import { parseOrThrow, ZListQuery } from '@risk/common';
import { EVENT_TYPE_NAMES } from '@risk/contracts';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { getEvent, listEvents } from '../domain/events/events';

const ZListEventsQuery = ZListQuery.extend({ type: z.enum(EVENT_TYPE_NAMES).optional() });
const ZEventParams = z.object({ event_id: z.string().min(1).max(100) });

/**
 * /v1/events (docs/webhooks.md "Events"). Any valid API key reads the events its org is the
 * audience of, so these two GETs authenticate but check no scope (the route builder always does,
 * hence plain handlers here).
 */
export function eventsRouter(deps: AppDeps, authenticator: ApiKeyAuthenticator): Router {
  const router = Router();
  router.get('/events', async (req, res) => {
    const auth = await authenticator.authenticate(req.headers.authorization);
    res.locals.auth = auth;
    const query = parseOrThrow(ZListEventsQuery, req.query ?? {});
    res.json(await listEvents(deps.prisma, auth, query));
  });
  router.get('/events/:event_id', async (req, res) => {
    const auth = await authenticator.authenticate(req.headers.authorization);
    res.locals.auth = auth;
    const params = parseOrThrow(ZEventParams, { ...req.params });
    res.json(await getEvent(deps.prisma, auth, params.event_id));
  });
  return router;
}
