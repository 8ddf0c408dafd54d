-- OSV advisory feeds (docs/advisories.md): one row per advisory id (upserted by id, the feed that last wrote it in
-- `source`), the packages each affects (the enrichment look-up's index), and the packages each asset was last
-- matched for (so an import that adds or changes an advisory finds the assets to re-enrich). Advisories are public
-- knowledge: not scoped by org or mode.

-- CreateTable
CREATE TABLE "advisories" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "summary" TEXT NOT NULL,
    "severity" TEXT,
    "modified" TIMESTAMPTZ(3) NOT NULL,
    "published" TIMESTAMPTZ(3),
    "withdrawn" TIMESTAMPTZ(3),
    "osv" JSONB NOT NULL,
    "content_hash" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "advisories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "advisory_packages" (
    "ecosystem" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "advisory_id" TEXT NOT NULL,

    CONSTRAINT "advisory_packages_pkey" PRIMARY KEY ("ecosystem", "name", "advisory_id")
);

-- CreateTable
CREATE TABLE "asset_packages" (
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "ecosystem" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "asset_packages_pkey" PRIMARY KEY ("livemode", "fingerprint", "ecosystem", "name")
);

-- CreateIndex
CREATE INDEX "advisories_aliases_idx" ON "advisories" USING GIN ("aliases");

-- CreateIndex
CREATE INDEX "advisories_source_idx" ON "advisories"("source");

-- CreateIndex
CREATE INDEX "advisory_packages_advisory_id_idx" ON "advisory_packages"("advisory_id");

-- CreateIndex
CREATE INDEX "asset_packages_ecosystem_name_idx" ON "asset_packages"("ecosystem", "name");

-- AddForeignKey
ALTER TABLE "advisory_packages" ADD CONSTRAINT "advisory_packages_advisory_id_fkey" FOREIGN KEY ("advisory_id") REFERENCES "advisories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_packages" ADD CONSTRAINT "asset_packages_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
