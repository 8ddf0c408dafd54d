-- Asynchronous asset projection of bulk ingest (issue 14 decision 2; docs/reliability.md "Asset projection"): one
-- row per accepted bulk signal whose asset, org link, events and fan-out are not applied yet. Written in the bulk
-- request's transaction, deleted in the projector's transaction that applies the signal; seq is the order of
-- acceptance (request order within a request), the order the projector applies them in.
CREATE TABLE "signal_projections" (
    "seq" BIGSERIAL NOT NULL,
    "signal_id" TEXT NOT NULL,

    CONSTRAINT "signal_projections_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "signal_projections_signal_id_key" ON "signal_projections"("signal_id");
