-- Each org's own name, version and source_url of an asset (docs/security.md "Display fields and feeds come from
-- the org's own observation"): an org's views and its risk feed read these, never the shared asset columns, which
-- any other org observing the asset can reach. Kept like the shared columns were: a signal's non-null field
-- replaces the org's earlier one, redacted at ingest.
ALTER TABLE "asset_orgs" ADD COLUMN "name" TEXT;
ALTER TABLE "asset_orgs" ADD COLUMN "version" TEXT;
ALTER TABLE "asset_orgs" ADD COLUMN "source_url" TEXT;

-- Observations made before this migration: each field from the org's own newest signal of the asset that carried it
-- (signals_fingerprint_created_idx). Only this org ever reads these values, so what its own signal held is shown.
UPDATE "asset_orgs" ao SET
  "name" = (SELECT s."name" FROM "signals" s
             WHERE s."fingerprint" = ao."fingerprint" AND s."livemode" = ao."livemode" AND s."org_id" = ao."org_id"
               AND s."name" IS NOT NULL ORDER BY s."created" DESC, s."id" DESC LIMIT 1),
  "version" = (SELECT s."version" FROM "signals" s
                WHERE s."fingerprint" = ao."fingerprint" AND s."livemode" = ao."livemode" AND s."org_id" = ao."org_id"
                  AND s."version" IS NOT NULL ORDER BY s."created" DESC, s."id" DESC LIMIT 1),
  "source_url" = (SELECT s."source_url" FROM "signals" s
                   WHERE s."fingerprint" = ao."fingerprint" AND s."livemode" = ao."livemode" AND s."org_id" = ao."org_id"
                     AND s."source_url" IS NOT NULL ORDER BY s."created" DESC, s."id" DESC LIMIT 1);
