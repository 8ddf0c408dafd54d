-- Signals name artifacts by content hash (docs/artifacts.md "Judgement"): the signal keeps the list it was sent, and
-- each asset keeps the hashes its current observations name, so a verdict that arrives later finds the assets to
-- re-enrich through one index probe by hash.

-- AlterTable
ALTER TABLE "signals" ADD COLUMN "artifacts" JSONB;

-- CreateTable
CREATE TABLE "asset_artifacts" (
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    -- the first path that names these bytes in the asset's observations, and the size the signal gave
    "path" TEXT NOT NULL,
    "size" BIGINT NOT NULL,

    CONSTRAINT "asset_artifacts_pkey" PRIMARY KEY ("livemode", "fingerprint", "sha256")
);

-- CreateIndex
CREATE INDEX "asset_artifacts_sha256_idx" ON "asset_artifacts"("sha256");

-- AddForeignKey
ALTER TABLE "asset_artifacts" ADD CONSTRAINT "asset_artifacts_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
