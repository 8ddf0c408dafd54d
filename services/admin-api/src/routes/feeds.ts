import { defineRoute, RawResponse } from '@risk/common/http';
import {
  EXAMPLE_ADD_BLOCK_ENTRIES,
  EXAMPLE_BLOCK_LIST,
  EXAMPLE_CREATE_FEED_TOKEN,
  EXAMPLE_DELETED_BLOCK_ENTRY,
  EXAMPLE_FEED_LIST_TEXT,
  EXAMPLE_FEED_TOKEN_CREATED,
  EXAMPLE_FEED_TOKEN_LIST,
  EXAMPLE_FEED_TOKEN_REVOKED,
  EXAMPLE_FEED_TOKEN_ROTATED,
  z,
  zList,
  ZAddBlockEntriesBody,
  ZBlockEntry,
  ZCreateFeedTokenBody,
  ZDeleted,
  ZFeedListParams,
  ZFeedToken,
  ZRotateFeedTokenBody,
  zPathId,
} from '@risk/contracts';
import { feedToken, tenantToken } from '../http/route';
import { addBlockEntries } from '../domain/feeds/add-block-entries';
import { createFeedToken } from '../domain/feeds/create-feed-token';
import { deleteBlockEntry } from '../domain/feeds/delete-block-entry';
import { etagMatches, getFeed } from '../domain/feeds/get-feed';
import { listBlockEntries } from '../domain/feeds/list-block-entries';
import { listFeedTokens } from '../domain/feeds/list-feed-tokens';
import { revokeFeedToken } from '../domain/feeds/revoke-feed-token';
import { rotateFeedToken } from '../domain/feeds/rotate-feed-token';

const ZIdParams = z.object({ id: zPathId });
const TEXT = 'text/plain; charset=utf-8';

/**
 * Risk feeds for firewalls (docs/feeds.md): the lists themselves (feed token), the feed tokens and the tenant's
 * block list (tenant token). Literal paths first.
 */
export const feedRoutes = [
  defineRoute({
    method: 'get',
    path: '/feeds/v1/lists/:format/:severity',
    auth: feedToken,
    params: ZFeedListParams,
    doc: {
      summary: 'A risk feed for firewalls (PAN-OS EDL or FortiGate external feed), plain text',
      description:
        'One entry a line in the vendor\'s list format (docs/feeds.md "Formats"), sorted; `ETag` over the bytes, ' +
        '`If-None-Match` answers 304; `X-Feed-Entries` counts the lines and `X-Feed-Truncated: true` says the cap cut it.',
      response: {
        description: 'the list',
        content: { 'text/plain': { schema: z.string(), example: EXAMPLE_FEED_LIST_TEXT } },
      },
      // 404: a path the router cannot take apart as /lists/{format}/{severity} (a backslash in a segment: the fuzz
      // suite, docs/reliability.md "Fuzz") answers route_not_found
      errors: [400, 404],
      otherResponses: { 304: { description: 'Not Modified: the list still has the ETag given in If-None-Match' } },
    },
    handler: async ({ deps, auth, params, req, res }) => {
      const feed = await getFeed(deps, { tenantId: auth.tenantId, format: params.format, severity: params.severity });
      res.setHeader('ETag', feed.etag);
      // a security list: every poll revalidates (cheap: 304 and a cached rendering), none is served stale
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('X-Feed-Entries', String(feed.count));
      if (feed.truncated) res.setHeader('X-Feed-Truncated', 'true');
      if (etagMatches(req.headers['if-none-match'], feed.etag)) return new RawResponse(TEXT, '', 304);
      return new RawResponse(TEXT, feed.text);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/feeds/v1/tokens',
    auth: tenantToken,
    body: ZCreateFeedTokenBody,
    status: 201,
    doc: {
      summary: 'Create a feed token (secret shown once) for firewalls to pull the feeds',
      response: { description: 'success', schema: ZFeedToken },
      examples: { request: EXAMPLE_CREATE_FEED_TOKEN, response: EXAMPLE_FEED_TOKEN_CREATED },
      errors: [400],
    },
    handler: ({ deps, auth, body }) => createFeedToken(deps, { tenantId: auth.tenantId, name: body.name }),
  }),
  defineRoute({
    method: 'get',
    path: '/feeds/v1/tokens',
    auth: tenantToken,
    doc: {
      summary: 'List feed tokens (newest 100, never a secret)',
      response: { description: 'success', schema: zList(ZFeedToken, 'FeedTokenList') },
      examples: { response: EXAMPLE_FEED_TOKEN_LIST },
    },
    handler: ({ deps, auth }) => listFeedTokens(deps, { tenantId: auth.tenantId }),
  }),
  defineRoute({
    method: 'delete',
    path: '/feeds/v1/tokens/:id',
    auth: tenantToken,
    params: ZIdParams,
    doc: {
      summary: 'Revoke a feed token',
      response: { description: 'success', schema: ZFeedToken },
      examples: { response: EXAMPLE_FEED_TOKEN_REVOKED },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params }) => revokeFeedToken(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
  defineRoute({
    method: 'post',
    path: '/feeds/v1/tokens/:id/rotate',
    auth: tenantToken,
    params: ZIdParams,
    body: ZRotateFeedTokenBody,
    doc: {
      summary: 'Rotate a feed token: a new secret; the previous one works for the grace period (24 h by default)',
      description:
        'The body is optional. `grace_period_seconds` (0 to 86400, default 86400) says how long the previous secret keeps working; 0 ends it at once (after a leak).',
      response: { description: 'success', schema: ZFeedToken },
      examples: { request: { grace_period_seconds: 3600 }, response: EXAMPLE_FEED_TOKEN_ROTATED },
      errors: [400, 401, 404],
    },
    handler: ({ deps, auth, params, body }) =>
      rotateFeedToken(deps, {
        tenantId: auth.tenantId,
        id: params.id,
        graceMs: body.grace_period_seconds === undefined ? undefined : body.grace_period_seconds * 1000,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/feeds/v1/block-list',
    auth: tenantToken,
    doc: {
      summary: "The tenant's block list (always in its feeds)",
      response: { description: 'success', schema: zList(ZBlockEntry, 'FeedBlockEntryList') },
      examples: { response: EXAMPLE_BLOCK_LIST },
    },
    handler: ({ deps, auth }) => listBlockEntries(deps, { tenantId: auth.tenantId }),
  }),
  defineRoute({
    method: 'post',
    path: '/feeds/v1/block-list',
    auth: tenantToken,
    body: ZAddBlockEntriesBody,
    doc: {
      summary: 'Add domains or URLs to the block list (all or none); answers the whole list',
      response: { description: 'success', schema: zList(ZBlockEntry, 'FeedBlockEntryList') },
      examples: { request: EXAMPLE_ADD_BLOCK_ENTRIES, response: EXAMPLE_BLOCK_LIST },
      errors: [400],
    },
    handler: ({ deps, auth, body }) => addBlockEntries(deps, { tenantId: auth.tenantId, entries: body.entries }),
  }),
  defineRoute({
    method: 'delete',
    path: '/feeds/v1/block-list/:id',
    auth: tenantToken,
    params: ZIdParams,
    doc: {
      summary: 'Remove a block-list entry',
      response: { description: 'success', schema: ZDeleted },
      examples: { response: EXAMPLE_DELETED_BLOCK_ENTRY },
      errors: [400, 404],
    },
    handler: ({ deps, auth, params }) => deleteBlockEntry(deps, { tenantId: auth.tenantId, id: params.id }),
  }),
];
