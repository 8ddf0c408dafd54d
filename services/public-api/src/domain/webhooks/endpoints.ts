import { randomBytes } from 'node:crypto';
import { encryptSecret } from '@risk/common/crypto';
import { ApiError } from '@risk/common/errors';
import {
  keysetOrder,
  keysetWhere,
  listEnvelope,
  paginate,
  type ListEnvelope,
  type PageRequest,
} from '@risk/common/http';
import { type OutboundGuard } from '@risk/common/outbound';
import { ID_PREFIXES, lockWebhookEndpointCreation, newId } from '@risk/db';
import type { CreateWebhookBody, UpdateWebhookBody, WebhookDelivery, WebhookEndpoint } from '@risk/contracts';
import { Prisma, type PrismaClient } from '@risk/db';
import { renderDelivery, renderEndpoint } from './render';
import { assertWebhookUrl } from './url';

export interface WebhookDeps {
  prisma: PrismaClient;
  guard: OutboundGuard;
  /** SECRETS_KEY: signing secrets are stored encrypted (AES-256-GCM); the worker decrypts to sign */
  secretsKey: string;
  /** WEBHOOK_ENDPOINTS_PER_ORG: endpoints one org may have in one mode (0: no cap) */
  maxEndpointsPerOrg?: number;
}

export interface WebhookActor {
  org_id: string;
  livemode: boolean;
}

/** Standard Webhooks symmetric secret: `whsec_` + base64 of 32 random bytes (spec: 24–64 bytes). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** ["*"] subsumes every name; otherwise the names, each once. */
function normaliseEvents(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

export async function createWebhookEndpoint(
  deps: WebhookDeps,
  actor: WebhookActor,
  body: CreateWebhookBody,
): Promise<WebhookEndpoint> {
  const url = await assertWebhookUrl(deps.guard, body.url, actor.livemode);
  const secret = generateWebhookSecret();
  const cap = deps.maxEndpointsPerOrg ?? 0;
  const row = await deps.prisma.$transaction(async (tx) => {
    if (cap > 0) {
      // one creator per org and mode at a time (transaction-scoped lock), so concurrent creates cannot overshoot the cap
      await lockWebhookEndpointCreation(tx, { orgId: actor.org_id, livemode: actor.livemode });
      const count = await tx.webhookEndpoint.count({ where: { org_id: actor.org_id, livemode: actor.livemode } });
      if (count >= cap)
        throw new ApiError('webhook_endpoint_limit_reached', {
          message: `This org already has ${count} ${actor.livemode ? 'live' : 'test'} webhook endpoints, the most allowed (${cap}); delete one first.`,
        });
    }
    return tx.webhookEndpoint.create({
      data: {
        id: newId(ID_PREFIXES.webhookEndpoint),
        org_id: actor.org_id,
        livemode: actor.livemode,
        url,
        events: normaliseEvents(body.events),
        description: body.description ?? null,
        metadata: body.metadata ?? undefined,
        secret_ciphertext: encryptSecret(secret, deps.secretsKey),
      },
    });
  });
  return renderEndpoint(row, secret);
}

/**
 * Endpoints belong to an org and a mode: another org's endpoint, or one of the other mode, is
 * indistinguishable from a missing one (404), so a test key can never repoint or read a live endpoint.
 */
const ownedBy = (actor: WebhookActor) => ({ org_id: actor.org_id, livemode: actor.livemode });

async function ownedEndpoint(prisma: PrismaClient, actor: WebhookActor, id: string) {
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, ...ownedBy(actor) } });
  if (!row)
    throw new ApiError('resource_missing', { param: 'webhook_id', message: `No such webhook endpoint: '${id}'.` });
  return row;
}

export async function getWebhookEndpoint(
  deps: Pick<WebhookDeps, 'prisma'>,
  actor: WebhookActor,
  id: string,
): Promise<WebhookEndpoint> {
  return renderEndpoint(await ownedEndpoint(deps.prisma, actor, id));
}

export async function listWebhookEndpoints(
  deps: Pick<WebhookDeps, 'prisma'>,
  actor: WebhookActor,
  page: PageRequest,
): Promise<ListEnvelope<WebhookEndpoint>> {
  const { prisma } = deps;
  const result = await paginate(page, {
    loadCursor: (id) =>
      prisma.webhookEndpoint.findFirst({ where: { id, ...ownedBy(actor) }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      prisma.webhookEndpoint.findMany({
        where: {
          AND: [ownedBy(actor), (keysetWhere('id', { before, after }) ?? {}) as Prisma.WebhookEndpointWhereInput],
        },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope(
    '/v1/webhooks',
    { data: result.data.map((r) => renderEndpoint(r)), has_more: result.has_more },
    (e) => e.id,
  );
}

export async function updateWebhookEndpoint(
  deps: WebhookDeps,
  input: { actor: WebhookActor; id: string; body: UpdateWebhookBody },
): Promise<WebhookEndpoint> {
  const { actor, id, body } = input;
  const current = await ownedEndpoint(deps.prisma, actor, id);
  const data: Prisma.WebhookEndpointUpdateInput = {};
  if (body.url !== undefined) data.url = await assertWebhookUrl(deps.guard, body.url, current.livemode);
  if (body.events !== undefined) data.events = normaliseEvents(body.events);
  if (body.description !== undefined) data.description = body.description;
  if (body.metadata !== undefined) data.metadata = body.metadata === null ? Prisma.DbNull : body.metadata;
  if (body.status !== undefined && body.status !== current.status) {
    data.status = body.status;
    // re-enabling starts a fresh failure window; disabling by hand says so
    data.disabled_reason = body.status === 'disabled' ? 'disabled through the API' : null;
    data.failing_since = null;
  }
  const row = await deps.prisma.webhookEndpoint.update({ where: { id: current.id }, data });
  return renderEndpoint(row);
}

/** Deleting removes the endpoint with its deliveries and attempts; queued jobs then find nothing to do. */
export async function deleteWebhookEndpoint(
  deps: Pick<WebhookDeps, 'prisma'>,
  actor: WebhookActor,
  id: string,
): Promise<{ object: 'webhook_endpoint'; id: string; deleted: true }> {
  const { count } = await deps.prisma.webhookEndpoint.deleteMany({ where: { id, ...ownedBy(actor) } });
  if (count === 0)
    throw new ApiError('resource_missing', { param: 'webhook_id', message: `No such webhook endpoint: '${id}'.` });
  return { object: 'webhook_endpoint', id, deleted: true };
}

/**
 * A new secret replaces the old one at once (deliveries from then on, retries included, are signed
 * with it); the response is the only place it is shown.
 */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  actor: WebhookActor,
  id: string,
): Promise<WebhookEndpoint> {
  const current = await ownedEndpoint(deps.prisma, actor, id);
  const secret = generateWebhookSecret();
  const row = await deps.prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: { secret_ciphertext: encryptSecret(secret, deps.secretsKey) },
  });
  return renderEndpoint(row, secret);
}

export async function listWebhookDeliveries(
  deps: Pick<WebhookDeps, 'prisma'>,
  input: { actor: WebhookActor; id: string; page: PageRequest & { status?: string } },
): Promise<ListEnvelope<WebhookDelivery>> {
  const { actor, id, page } = input;
  const { prisma } = deps;
  const endpoint = await ownedEndpoint(prisma, actor, id);
  const filter: Prisma.WebhookDeliveryWhereInput = {
    endpoint_id: endpoint.id,
    ...(page.status ? { status: page.status } : {}),
  };
  const result = await paginate(page, {
    loadCursor: (cursor) =>
      prisma.webhookDelivery.findFirst({
        where: { id: cursor, endpoint_id: endpoint.id },
        select: { id: true, created: true },
      }),
    fetch: ({ before, after, order, take }) =>
      prisma.webhookDelivery.findMany({
        where: { AND: [filter, (keysetWhere('id', { before, after }) ?? {}) as Prisma.WebhookDeliveryWhereInput] },
        orderBy: keysetOrder('id', order),
        take,
        include: { attempts: { orderBy: { attempt: 'asc' } } },
      }),
  });
  return listEnvelope(
    `/v1/webhooks/${endpoint.id}/deliveries`,
    { data: result.data.map(renderDelivery), has_more: result.has_more },
    (d) => d.id,
  );
}
