-- Initial schema: every resource of the spec and DESIGN.md. Written to match what
-- `prisma migrate diff --from-empty --to-schema prisma/schema.prisma --script` emits.

-- Trigram matching for flexible asset name look-up.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "scopes" TEXT[],
    "name" TEXT,
    "deployment_token_id" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "id" BIGSERIAL NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "original_request_id" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signals" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "observed_at" TIMESTAMPTZ(3) NOT NULL,
    "name" TEXT,
    "version" TEXT,
    "source_url" TEXT,
    "raw_manifest" TEXT,
    "metadata" JSONB,
    "content_digest" TEXT NOT NULL,
    "request_id" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets" (
    "fingerprint" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "name" TEXT,
    "normalized_name" TEXT,
    "publisher" TEXT,
    "version" TEXT,
    "ecosystem" TEXT,
    "source_url" TEXT,
    "enrichment_status" TEXT NOT NULL DEFAULT 'pending',
    "enrichment_error" TEXT,
    "intrinsic_risk_score" INTEGER,
    "intrinsic_risk_severity" TEXT,
    "publisher_trust" JSONB,
    "benchmark_summary" JSONB,
    "score_breakdown" JSONB,
    "current_aibom_id" TEXT,
    "latest_signal_id" TEXT NOT NULL,
    "latest_digest" TEXT NOT NULL,
    "enriched_digest" TEXT,
    "signal_count" INTEGER NOT NULL DEFAULT 1,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    "enriched_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("fingerprint")
);

-- CreateTable
CREATE TABLE "asset_orgs" (
    "fingerprint" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "signal_count" INTEGER NOT NULL DEFAULT 1,
    "first_seen" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_orgs_pkey" PRIMARY KEY ("fingerprint","org_id")
);

-- CreateTable
CREATE TABLE "findings" (
    "id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "evidence" JSONB NOT NULL,
    "capabilities" TEXT[],
    "attack_techniques" TEXT[],
    "cve_ids" TEXT[],
    "threat_ids" TEXT[],
    "remediation" TEXT,
    "score_contribution" DOUBLE PRECISION NOT NULL,
    "score_breakdown" JSONB,
    "benchmark" JSONB,
    "enrichment_digest" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "aiboms" (
    "id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "bom_version" INTEGER NOT NULL,
    "content_hash" TEXT NOT NULL,
    "spdx_version" TEXT NOT NULL,
    "spdx" JSONB NOT NULL,
    "components" JSONB NOT NULL,
    "lineage" JSONB,
    "cyclonedx" JSONB,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "aiboms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "threats" (
    "id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "created_by_org" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "severity" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION,
    "affected_asset_types" TEXT[],
    "fingerprints" TEXT[],
    "attack_techniques" TEXT[],
    "cve_id" TEXT,
    "remediation" TEXT,
    "source" TEXT,
    "risk_penalty" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "threats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "org_id" TEXT,
    "fingerprint" TEXT,
    "data" JSONB NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "metadata" JSONB,
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "disabled_reason" TEXT,
    "secret_ciphertext" TEXT NOT NULL,
    "failing_since" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "last_response_status" INTEGER,
    "next_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "error" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "dedupe_key" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "available_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "admin_email" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deployment_tokens" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT,
    "token_hash" TEXT NOT NULL,
    "token_prefix" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "max_uses" INTEGER,
    "use_count" INTEGER NOT NULL DEFAULT 0,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "firewalls" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL DEFAULT 443,
    "verify_ssl" BOOLEAN NOT NULL DEFAULT true,
    "api_token_ciphertext" TEXT NOT NULL,
    "api_token_last4" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unknown',
    "last_test_at" TIMESTAMPTZ(3),
    "last_test_ok" BOOLEAN,
    "last_test_latency_ms" INTEGER,
    "last_test_error" TEXT,
    "model" TEXT,
    "sw_version" TEXT,
    "logging_config" JSONB,
    "logging_status" TEXT,
    "logging_error" TEXT,
    "logging_updated_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "firewalls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "url_filter_policies" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "default_action" TEXT NOT NULL DEFAULT 'allow',
    "version" INTEGER NOT NULL DEFAULT 1,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "url_filter_policies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "url_filter_rules" (
    "id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT,
    "action" TEXT NOT NULL,
    "categories" TEXT[],
    "domains" TEXT[],
    "min_risk_score" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "url_filter_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "policy_assignments" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "firewall_id" TEXT NOT NULL,
    "sync_status" TEXT NOT NULL DEFAULT 'pending',
    "target_version" INTEGER NOT NULL,
    "synced_version" INTEGER,
    "last_error" TEXT,
    "last_synced_at" TIMESTAMPTZ(3),
    "pushed_objects" JSONB,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_assignments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_org_id_created_id_idx" ON "api_keys"("org_id", "created" DESC, "id" DESC);
CREATE INDEX "api_keys_deployment_token_id_idx" ON "api_keys"("deployment_token_id");
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys"("created");
CREATE UNIQUE INDEX "idempotency_keys_org_id_livemode_method_path_key_key" ON "idempotency_keys"("org_id", "livemode", "method", "path", "key");
CREATE INDEX "signals_org_id_created_id_idx" ON "signals"("org_id", "created" DESC, "id" DESC);
CREATE INDEX "signals_fingerprint_created_idx" ON "signals"("fingerprint", "created" DESC);
CREATE INDEX "assets_created_fingerprint_idx" ON "assets"("created" DESC, "fingerprint" DESC);
CREATE INDEX "assets_asset_type_created_idx" ON "assets"("asset_type", "created" DESC);
CREATE INDEX "assets_enrichment_status_created_idx" ON "assets"("enrichment_status", "created" DESC);
CREATE INDEX "assets_intrinsic_risk_severity_created_idx" ON "assets"("intrinsic_risk_severity", "created" DESC);
CREATE INDEX "assets_normalized_name_version_idx" ON "assets"("normalized_name", "version");
CREATE INDEX "assets_normalized_name_trgm_idx" ON "assets" USING GIN ("normalized_name" gin_trgm_ops);
CREATE INDEX "assets_enriched_at_idx" ON "assets"("enriched_at");
CREATE INDEX "asset_orgs_org_id_idx" ON "asset_orgs"("org_id");
CREATE INDEX "findings_fingerprint_idx" ON "findings"("fingerprint");
CREATE INDEX "findings_cve_ids_idx" ON "findings" USING GIN ("cve_ids");
CREATE UNIQUE INDEX "aiboms_fingerprint_bom_version_key" ON "aiboms"("fingerprint", "bom_version");
CREATE INDEX "threats_created_id_idx" ON "threats"("created" DESC, "id" DESC);
CREATE INDEX "threats_category_created_idx" ON "threats"("category", "created" DESC);
CREATE INDEX "threats_severity_created_idx" ON "threats"("severity", "created" DESC);
CREATE INDEX "threats_affected_asset_types_idx" ON "threats" USING GIN ("affected_asset_types");
CREATE INDEX "threats_fingerprints_idx" ON "threats" USING GIN ("fingerprints");
CREATE INDEX "threats_cve_id_idx" ON "threats"("cve_id");
CREATE INDEX "events_created_id_idx" ON "events"("created" DESC, "id" DESC);
CREATE INDEX "events_type_created_idx" ON "events"("type", "created" DESC);
CREATE INDEX "events_org_id_created_idx" ON "events"("org_id", "created" DESC);
CREATE INDEX "events_fingerprint_idx" ON "events"("fingerprint");
CREATE INDEX "webhook_endpoints_org_id_created_id_idx" ON "webhook_endpoints"("org_id", "created" DESC, "id" DESC);
CREATE INDEX "webhook_deliveries_endpoint_id_created_id_idx" ON "webhook_deliveries"("endpoint_id", "created" DESC, "id" DESC);
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");
CREATE INDEX "webhook_delivery_attempts_delivery_id_attempt_idx" ON "webhook_delivery_attempts"("delivery_id", "attempt");
CREATE INDEX "outbox_processed_at_available_at_idx" ON "outbox"("processed_at", "available_at");
CREATE UNIQUE INDEX "tenants_name_key" ON "tenants"("name");
CREATE UNIQUE INDEX "tenants_org_id_key" ON "tenants"("org_id");
CREATE INDEX "tenants_created_id_idx" ON "tenants"("created" DESC, "id" DESC);
CREATE UNIQUE INDEX "deployment_tokens_token_hash_key" ON "deployment_tokens"("token_hash");
CREATE INDEX "deployment_tokens_tenant_id_created_id_idx" ON "deployment_tokens"("tenant_id", "created" DESC, "id" DESC);
CREATE UNIQUE INDEX "firewalls_tenant_id_name_key" ON "firewalls"("tenant_id", "name");
CREATE INDEX "firewalls_tenant_id_created_id_idx" ON "firewalls"("tenant_id", "created" DESC, "id" DESC);
CREATE UNIQUE INDEX "url_filter_policies_tenant_id_name_key" ON "url_filter_policies"("tenant_id", "name");
CREATE INDEX "url_filter_policies_tenant_id_created_id_idx" ON "url_filter_policies"("tenant_id", "created" DESC, "id" DESC);
CREATE INDEX "url_filter_rules_policy_id_position_idx" ON "url_filter_rules"("policy_id", "position");
CREATE UNIQUE INDEX "policy_assignments_policy_id_firewall_id_key" ON "policy_assignments"("policy_id", "firewall_id");
CREATE INDEX "policy_assignments_firewall_id_idx" ON "policy_assignments"("firewall_id");
CREATE INDEX "policy_assignments_tenant_id_idx" ON "policy_assignments"("tenant_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_deployment_token_id_fkey" FOREIGN KEY ("deployment_token_id") REFERENCES "deployment_tokens"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "asset_orgs" ADD CONSTRAINT "asset_orgs_fingerprint_fkey" FOREIGN KEY ("fingerprint") REFERENCES "assets"("fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "findings" ADD CONSTRAINT "findings_fingerprint_fkey" FOREIGN KEY ("fingerprint") REFERENCES "assets"("fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "aiboms" ADD CONSTRAINT "aiboms_fingerprint_fkey" FOREIGN KEY ("fingerprint") REFERENCES "assets"("fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "deployment_tokens" ADD CONSTRAINT "deployment_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "firewalls" ADD CONSTRAINT "firewalls_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "url_filter_policies" ADD CONSTRAINT "url_filter_policies_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "url_filter_rules" ADD CONSTRAINT "url_filter_rules_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "url_filter_policies"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "policy_assignments" ADD CONSTRAINT "policy_assignments_policy_id_fkey" FOREIGN KEY ("policy_id") REFERENCES "url_filter_policies"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "policy_assignments" ADD CONSTRAINT "policy_assignments_firewall_id_fkey" FOREIGN KEY ("firewall_id") REFERENCES "firewalls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
