-- Asset history (docs/history.md): one row per enrichment that changed an asset's score, severity, finding
-- set or AI-BOM version, written by the enrichment writer in its own transaction. Storage grows with
-- changes, not with observations, and is capped per asset (ASSET_HISTORY_CAP in the store).

-- CreateTable
CREATE TABLE "asset_history" (
    "id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "enrichment_digest" TEXT NOT NULL,
    "intrinsic_risk_score" INTEGER,
    "intrinsic_risk_severity" TEXT,
    "previous_risk_score" INTEGER,
    "previous_risk_severity" TEXT,
    "bom_version" INTEGER,
    "findings" JSONB NOT NULL,
    "findings_added" JSONB NOT NULL,
    "findings_removed" JSONB NOT NULL,
    "findings_changed" JSONB NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "asset_history_livemode_fingerprint_id_idx" ON "asset_history"("livemode", "fingerprint", "id" DESC);

-- AddForeignKey
ALTER TABLE "asset_history" ADD CONSTRAINT "asset_history_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
