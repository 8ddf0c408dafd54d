-- Per-org triage (docs/triage.md, issue 15 items 4 and 5): analysis states of findings and their history,
-- suppression rules and severity overrides. All of it is private to one org in one mode; the shared asset,
-- its findings and its intrinsic score are never written by these tables' users.

-- CreateTable
CREATE TABLE "finding_triage" (
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "finding_key" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "justification" TEXT,
    "comment" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "set_by" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "finding_triage_pkey" PRIMARY KEY ("org_id", "livemode", "fingerprint", "finding_key")
);

-- CreateTable
CREATE TABLE "finding_triage_events" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "finding_key" TEXT NOT NULL,
    "from_state" TEXT NOT NULL,
    "to_state" TEXT NOT NULL,
    "justification" TEXT,
    "comment" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "set_by" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "finding_triage_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suppression_rules" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "rule_id" TEXT,
    "cve_id" TEXT,
    "attack_technique" TEXT,
    "fingerprint_glob" TEXT,
    "asset_type" TEXT,
    "reason" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppression_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "severity_overrides" (
    "org_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "rule_id" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "reason" TEXT,
    "set_by" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "severity_overrides_pkey" PRIMARY KEY ("org_id", "livemode", "rule_id")
);

-- CreateIndex
CREATE INDEX "finding_triage_expires_at_idx" ON "finding_triage"("expires_at");

-- CreateIndex
CREATE INDEX "finding_triage_events_finding_idx" ON "finding_triage_events"("org_id", "livemode", "fingerprint", "finding_key", "id" DESC);

-- CreateIndex
CREATE INDEX "suppression_rules_org_id_livemode_created_id_idx" ON "suppression_rules"("org_id", "livemode", "created" DESC, "id" DESC);
