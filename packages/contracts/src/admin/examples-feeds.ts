// The admin API's examples for the risk feeds (docs/architecture.md "Examples"; docs/feeds.md): tenant Acme mints a
// feed token for its PAN-OS firewall's External Dynamic List, rotates it, and blocks an AI chat proxy on top of the
// risk entries. Same story and ids as examples.ts; timestamps are ISO strings like every admin API date.
import type { z } from '../zod';
import type { ZAddBlockEntriesBody, ZBlockEntry, ZCreateFeedTokenBody, ZFeedToken } from './feeds';
import type { ZDeleted } from './shared';
import { exampleAdminList } from './examples';

type Of<S extends z.ZodType> = z.infer<S>;

const AT = '2026-11-22T07:42:18.000Z';
const ROTATED = '2026-11-23T09:05:41.000Z';

/**
 * GET /feeds/v1/lists/panos-url/high: one entry a line, sorted, `\n` line ends, no scheme; a blocked domain also
 * lists its subdomains as `*.` (docs/feeds.md "Formats").
 */
export const EXAMPLE_FEED_LIST_TEXT = [
  '*.free-gpt-proxy.example',
  'free-gpt-proxy.example',
  'huggingface.co/acme-ai/llama-3.1-8b-support-lora',
  'huggingface.co/llama-tools/llama-3.1-8b-instruct-lora',
  'paste.example.net/raw/Qx7fK2',
  '',
].join('\n');

export const EXAMPLE_CREATE_FEED_TOKEN: Of<typeof ZCreateFeedTokenBody> = { name: 'pa-3220 hq edl' };

/** A feed token as lists show it: the prefix tells tokens apart, the secret is never shown again. */
export const EXAMPLE_FEED_TOKEN: Of<typeof ZFeedToken> = {
  object: 'feed_token',
  id: 'ftk_01m81d2vq6h4k8t0x3c7n9p5re',
  name: 'pa-3220 hq edl',
  token_prefix: 'rkf_ZedII-iY',
  status: 'active',
  firewall_id: null,
  previous_expires_at: null,
  revoked_at: null,
  last_used_at: '2026-11-23T08:55:02.000Z',
  created: AT,
};

/** POST /feeds/v1/tokens: the only answer that carries the secret (with rotation). */
export const EXAMPLE_FEED_TOKEN_CREATED: Of<typeof ZFeedToken> = {
  ...EXAMPLE_FEED_TOKEN,
  last_used_at: null,
  token: 'rkf_ZedII-iYEXs_YCiDb4xg7EWBZ_NVpoErVtxV2DbYujQ',
};

/** POST /feeds/v1/tokens/{id}/rotate: a new secret; the previous one keeps working for 24 h. */
export const EXAMPLE_FEED_TOKEN_ROTATED: Of<typeof ZFeedToken> = {
  ...EXAMPLE_FEED_TOKEN,
  token_prefix: 'rkf_LLAA1brq',
  previous_expires_at: '2026-11-24T09:05:41.000Z',
  token: 'rkf_LLAA1brqo5qTmZKCdEWzt1E7XB67yD_N1ZTATeDra74',
};

/** DELETE /feeds/v1/tokens/{id}. */
export const EXAMPLE_FEED_TOKEN_REVOKED: Of<typeof ZFeedToken> = {
  ...EXAMPLE_FEED_TOKEN,
  status: 'revoked',
  revoked_at: ROTATED,
};

/** A token the firewall sync minted for the PAN-OS firewall of examples.ts. */
const SYNC_FEED_TOKEN: Of<typeof ZFeedToken> = {
  ...EXAMPLE_FEED_TOKEN,
  id: 'ftk_01m81c9f3aw2e6y8mbt4r1kz7d',
  name: null,
  token_prefix: 'rkf_u7Jq2mXw',
  firewall_id: 'fw_01m81c8dkkb77xkmqh8h3t4509',
  last_used_at: '2026-11-23T09:00:00.000Z',
  created: '2026-11-22T07:31:12.000Z',
};

export const EXAMPLE_FEED_TOKEN_LIST = exampleAdminList('/feeds/v1/tokens', [EXAMPLE_FEED_TOKEN, SYNC_FEED_TOKEN]);

export const EXAMPLE_ADD_BLOCK_ENTRIES: Of<typeof ZAddBlockEntriesBody> = {
  entries: [
    { value: 'free-gpt-proxy.example', note: 'unsanctioned ChatGPT proxy (INC-2291)' },
    { value: 'paste.example.net/raw/Qx7fK2', note: 'prompt-injection payload seen in support tickets' },
  ],
};

export const EXAMPLE_BLOCK_ENTRY: Of<typeof ZBlockEntry> = {
  object: 'feed_block_entry',
  id: 'fbe_01m81d4k7tq2w9c5v8x3n6b1zh',
  kind: 'domain',
  value: 'free-gpt-proxy.example',
  note: 'unsanctioned ChatGPT proxy (INC-2291)',
  created: AT,
};

const URL_BLOCK_ENTRY: Of<typeof ZBlockEntry> = {
  object: 'feed_block_entry',
  id: 'fbe_01m81d4k7tq2w9c5v8x3n6b1zj',
  kind: 'url',
  value: 'paste.example.net/raw/Qx7fK2',
  note: 'prompt-injection payload seen in support tickets',
  created: AT,
};

export const EXAMPLE_BLOCK_LIST = exampleAdminList('/feeds/v1/block-list', [EXAMPLE_BLOCK_ENTRY, URL_BLOCK_ENTRY]);

export const EXAMPLE_DELETED_BLOCK_ENTRY: Of<typeof ZDeleted> = {
  id: URL_BLOCK_ENTRY.id,
  object: 'feed_block_entry',
  deleted: true,
};
