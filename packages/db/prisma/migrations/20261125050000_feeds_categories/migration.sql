-- Risk feeds for firewalls and operator category data (docs/feeds.md, docs/firewalls.md "Category data").

-- A URL-filter rule can match "assets at or above this severity": it compiles into a reference to the
-- tenant's feed (a PAN-OS External Dynamic List, a FortiGate external threat feed).
ALTER TABLE "url_filter_rules" ADD COLUMN "min_asset_severity" TEXT;

-- Feed credentials: read-only, per tenant, what a firewall holds to pull the feeds (HTTP Basic: the id as
-- user name, the secret as password; or the secret as a bearer token). Only the SHA-256 of a secret is
-- looked up; a token the sync provisions for one firewall keeps its secret encrypted (SECRETS_KEY) too,
-- since every push of the policy configures it on the device again.
CREATE TABLE "feed_tokens" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT,
    "token_hash" TEXT NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "previous_token_hash" TEXT,
    "previous_expires_at" TIMESTAMPTZ(3),
    "secret_ciphertext" TEXT,
    "firewall_id" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "feed_tokens_token_hash_key" ON "feed_tokens"("token_hash");
CREATE UNIQUE INDEX "feed_tokens_previous_token_hash_key" ON "feed_tokens"("previous_token_hash");
CREATE INDEX "feed_tokens_tenant_id_created_id_idx" ON "feed_tokens"("tenant_id", "created" DESC, "id" DESC);
CREATE INDEX "feed_tokens_firewall_id_idx" ON "feed_tokens"("firewall_id");
ALTER TABLE "feed_tokens" ADD CONSTRAINT "feed_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "feed_tokens" ADD CONSTRAINT "feed_tokens_firewall_id_fkey" FOREIGN KEY ("firewall_id") REFERENCES "firewalls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A tenant's own block list: domains (`example.com`, `*.example.com`) and URLs without a scheme.
CREATE TABLE "feed_block_entries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_block_entries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "feed_block_entries_tenant_id_value_key" ON "feed_block_entries"("tenant_id", "value");
ALTER TABLE "feed_block_entries" ADD CONSTRAINT "feed_block_entries_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Operator category data (`pnpm cli categories import <csv>`), merged with the shipped JSON files.
CREATE TABLE "operator_ai_categories" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_ai_categories_pkey" PRIMARY KEY ("id")
);
CREATE TABLE "operator_ai_domains" (
    "domain" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_ai_domains_pkey" PRIMARY KEY ("domain")
);
