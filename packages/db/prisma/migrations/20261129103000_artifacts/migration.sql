-- Artifact verdicts shared by content hash (docs/artifacts.md "Artifacts in the API"). A verdict the platform made
-- from the bytes is a fact about those bytes, so `artifacts` has no org: any org may read it. Which org uploaded
-- what lives apart in `artifact_uploads`, which no cross-org read ever joins.
CREATE TABLE "artifacts" (
    "sha256"           TEXT NOT NULL,
    "size"             BIGINT NOT NULL,
    -- null until the first scan ends
    "format"           TEXT,
    -- malicious | suspicious | benign | invalid | unscannable | unsupported (null until the first scan ends)
    "verdict"          TEXT,
    "findings"         JSONB NOT NULL DEFAULT '[]',
    "facts"            JSONB NOT NULL DEFAULT '{}',
    -- the analyser version that made the verdict (a re-scan replaces both)
    "analyser_version" TEXT,
    -- scanning | done | failed
    "status"           TEXT NOT NULL,
    -- why the last scan failed (failed only): scan_error | lease_expired
    "failure"          TEXT,
    -- the scan lease: the process scanning and until when; another replica or the worker marks a scan whose lease
    -- ran out failed
    "scan_owner"       TEXT,
    "scan_lease_until" TIMESTAMPTZ(3),
    -- the bytes are kept in artifact_chunks (operator setting ARTIFACTS_KEEP_BYTES): re-scannable
    "bytes_kept"       BOOLEAN NOT NULL DEFAULT false,
    "scanned_at"       TIMESTAMPTZ(3),
    "created_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("sha256"),
    CONSTRAINT "artifacts_sha256_hex" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "artifacts_size_nonnegative" CHECK ("size" >= 0),
    CONSTRAINT "artifacts_status" CHECK ("status" IN ('scanning', 'done', 'failed')),
    CONSTRAINT "artifacts_verdict" CHECK ("verdict" IS NULL OR "verdict" IN
        ('malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported'))
);

-- the sweep of scans whose lease ran out, and the re-scan of kept bytes made by another analyser version
CREATE INDEX "artifacts_status_scan_lease_until_idx" ON "artifacts" ("status", "scan_lease_until");
CREATE INDEX "artifacts_bytes_kept_analyser_version_idx" ON "artifacts" ("bytes_kept", "analyser_version");

-- Kept bytes, in order (replicas share no disk, so the bytes go to Postgres): 1 MiB chunks.
CREATE TABLE "artifact_chunks" (
    "sha256" TEXT NOT NULL,
    "seq"    INTEGER NOT NULL,
    "data"   BYTEA NOT NULL,

    CONSTRAINT "artifact_chunks_pkey" PRIMARY KEY ("sha256", "seq"),
    CONSTRAINT "artifact_chunks_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "artifacts"("sha256") ON DELETE CASCADE
);

-- Which org uploaded which bytes: private to that org, never read across orgs.
CREATE TABLE "artifact_uploads" (
    "org_id"           TEXT NOT NULL,
    "livemode"         BOOLEAN NOT NULL,
    "sha256"           TEXT NOT NULL,
    -- the Idempotency-Key of the first upload that carried it, if any
    "idempotency_key"  TEXT,
    "filename"         TEXT,
    "uploads"          INTEGER NOT NULL DEFAULT 1,
    "created_at"       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifact_uploads_pkey" PRIMARY KEY ("org_id", "livemode", "sha256"),
    CONSTRAINT "artifact_uploads_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "artifacts"("sha256") ON DELETE CASCADE
);

CREATE INDEX "artifact_uploads_sha256_idx" ON "artifact_uploads" ("sha256");
