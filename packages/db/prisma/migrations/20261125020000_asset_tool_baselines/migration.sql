-- MCP tool drift (docs/drift.md): per asset and mode, the first definition seen of every tool name (the
-- baseline the engine compares later observations with) and the definition hash in the asset's current tool
-- set (null when the tool is absent now), written by the enrichment writer in its transaction. One row per
-- tool name ever seen (capped per asset in the store), deleted with the asset.

-- CreateTable
CREATE TABLE "asset_tool_baselines" (
    "livemode" BOOLEAN NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "definition_hash" TEXT NOT NULL,
    "description_hash" TEXT NOT NULL,
    "schema_hash" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "input_schema" JSONB,
    "capabilities" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "original" BOOLEAN NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "current_hash" TEXT,
    "first_seen" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asset_tool_baselines_pkey" PRIMARY KEY ("livemode", "fingerprint", "name")
);

-- AddForeignKey
ALTER TABLE "asset_tool_baselines" ADD CONSTRAINT "asset_tool_baselines_livemode_fingerprint_fkey" FOREIGN KEY ("livemode", "fingerprint") REFERENCES "assets"("livemode", "fingerprint") ON DELETE CASCADE ON UPDATE CASCADE;
