-- Scan results a client reports itself for the files it names (docs/artifacts.md "Client-reported scan results"):
-- per org, per asset, per hash, apart from the shared `artifacts` verdicts, which only the platform's own scans
-- write. Rebuilt by enrichment from each org's latest signal; read only by that org's views of the asset.
CREATE TABLE "asset_org_artifact_reports" (
    "livemode"         BOOLEAN NOT NULL,
    "fingerprint"      TEXT NOT NULL,
    "org_id"           TEXT NOT NULL,
    "sha256"           TEXT NOT NULL,
    -- the first path of the org's signal that names these bytes
    "path"             TEXT NOT NULL,
    "verdict"          TEXT NOT NULL,
    "analyser"         TEXT NOT NULL,
    "analyser_version" TEXT NOT NULL,
    "findings"         JSONB NOT NULL DEFAULT '[]',
    -- the content digest of the signal that carried the report: it counts while it is the org's latest observation
    "digest"           TEXT NOT NULL,
    "reported_at"      TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "asset_org_artifact_reports_pkey" PRIMARY KEY ("livemode", "fingerprint", "org_id", "sha256"),
    CONSTRAINT "asset_org_artifact_reports_sha256_hex" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "asset_org_artifact_reports_verdict" CHECK ("verdict" IN
        ('malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported'))
);

-- the org's views read an org's reports of a page of assets
CREATE INDEX "asset_org_artifact_reports_org_id_livemode_fingerprint_idx"
    ON "asset_org_artifact_reports" ("org_id", "livemode", "fingerprint");

-- AddForeignKey
ALTER TABLE "asset_org_artifact_reports" ADD CONSTRAINT "asset_org_artifact_reports_livemode_fingerprint_org_id_fkey" FOREIGN KEY ("livemode", "fingerprint", "org_id") REFERENCES "asset_orgs"("livemode", "fingerprint", "org_id") ON DELETE CASCADE ON UPDATE CASCADE;
