-- Test mode is a sandbox and shared assets combine every org's latest observation
-- (docs/security.md "Modes and shared observations").
-- Assets, findings, AI-BOMs and asset_orgs gain livemode and are keyed by (livemode, fingerprint).
-- Rows that exist before this migration were shared by both modes; they become live-mode rows.

-- DropForeignKey
ALTER TABLE "asset_orgs" DROP CONSTRAINT "asset_orgs_fingerprint_fkey";
ALTER TABLE "findings" DROP CONSTRAINT "findings_fingerprint_fkey";
ALTER TABLE "aiboms" DROP CONSTRAINT "aiboms_fingerprint_fkey";

-- DropIndex
DROP INDEX "assets_created_fingerprint_idx";
DROP INDEX "assets_asset_type_created_idx";
DROP INDEX "assets_enrichment_status_created_idx";
DROP INDEX "assets_intrinsic_risk_severity_created_idx";
DROP INDEX "assets_normalized_name_version_idx";
DROP INDEX "findings_fingerprint_idx";
DROP INDEX "aiboms_fingerprint_bom_version_key";

-- AlterTable
ALTER TABLE "assets" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "assets" ALTER COLUMN "livemode" DROP DEFAULT;
ALTER TABLE "assets" DROP CONSTRAINT "assets_pkey", ADD CONSTRAINT "assets_pkey" PRIMARY KEY ("livemode", "fingerprint");

ALTER TABLE "asset_orgs" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN "latest_signal_id" TEXT,
  ADD COLUMN "latest_digest" TEXT;
ALTER TABLE "asset_orgs" ALTER COLUMN "livemode" DROP DEFAULT;
ALTER TABLE "asset_orgs" DROP CONSTRAINT "asset_orgs_pkey", ADD CONSTRAINT "asset_orgs_pkey" PRIMARY KEY ("livemode", "fingerprint", "org_id");
-- each org's latest observation: its newest signal for the fingerprint
UPDATE "asset_orgs" ao SET "latest_signal_id" = s."id", "latest_digest" = s."content_digest"
  FROM (
    SELECT DISTINCT ON ("fingerprint", "org_id") "fingerprint", "org_id", "id", "content_digest"
      FROM "signals" ORDER BY "fingerprint", "org_id", "created" DESC, "id" DESC
  ) s
 WHERE s."fingerprint" = ao."fingerprint" AND s."org_id" = ao."org_id";

ALTER TABLE "findings" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "findings" ALTER COLUMN "livemode" DROP DEFAULT;

ALTER TABLE "aiboms" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "aiboms" ALTER COLUMN "livemode" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "assets_livemode_created_fingerprint_idx" ON "assets"("livemode", "created" DESC, "fingerprint" DESC);
CREATE INDEX "assets_livemode_asset_type_created_idx" ON "assets"("livemode", "asset_type", "created" DESC);
CREATE INDEX "assets_livemode_enrichment_status_created_idx" ON "assets"("livemode", "enrichment_status", "created" DESC);
CREATE INDEX "assets_livemode_intrinsic_risk_severity_created_idx" ON "assets"("livemode", "intrinsic_risk_severity", "created" DESC);
CREATE INDEX "assets_livemode_normalized_name_version_idx" ON "assets"("livemode", "normalized_name", "version");
CREATE INDEX "asset_orgs_last_seen_idx" ON "asset_orgs"("last_seen");
CREATE INDEX "findings_livemode_fingerprint_idx" ON "findings"("livemode", "fingerprint");
CREATE UNIQUE INDEX "aiboms_livemode_fingerprint_bom_version_key" ON "aiboms"("livemode", "fingerprint", "bom_version");

-- AddForeignKey
ALTER TABLE "asset_orgs" ADD CONSTRAINT "asset_orgs_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "findings" ADD CONSTRAINT "findings_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "aiboms" ADD CONSTRAINT "aiboms_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
